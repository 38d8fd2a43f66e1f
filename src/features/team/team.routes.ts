/** Dashboard team management: invitations and members (`/api/dashboard/invitations`, `/api/dashboard/members`). */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { dashboardAccess, principalOf } from '../../platform/auth/auth.ts';
import { TABS } from '../../platform/auth/principal.ts';
import { errorResponses, TimestampSchema } from '../../platform/schemas.ts';
import type { TeamService } from './team.service.ts';

const TabList = Type.Array(Type.Enum(TABS), { uniqueItems: true });
const InvitableRole = Type.Union([Type.Literal('admin'), Type.Literal('agent')]);
const MemberSchema = Type.Object({
  user_id: Type.String(),
  email: Type.String(),
  name: Type.String(),
  role: Type.String(),
  tabs: Type.Array(Type.String()),
  created_at: TimestampSchema,
});
const UserParams = Type.Object({ user_id: Type.String({ format: 'uuid' }) });

export function teamRoutes(deps: { team: TeamService }) {
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const { team } = deps;
    const tags = ['dashboard: team'];

    app.post('/api/dashboard/invitations', {
      config: { auth: dashboardAccess },
      schema: {
        operationId: 'inviteMember',
        tags,
        summary: 'Invite a member',
        description: 'The `token` (shown once, valid 7 days, once, for this email) is what the invitee gives to `POST /api/auth/signup` as `invite_token`. Owner or admin with the Team tab; only the owner invites an admin.',
        body: Type.Object({ email: Type.String({ format: 'email', maxLength: 254 }), role: InvitableRole, tabs: Type.Optional(TabList) }),
        response: {
          201: Type.Object({ id: Type.String(), email: Type.String(), role: Type.String(), tabs: Type.Array(Type.String()), token: Type.String(), expires_at: TimestampSchema }),
          ...errorResponses,
        },
      },
      handler: async (request, reply) => reply.code(201).send(await team.invite(principalOf(request, 'dashboard'), request.body)),
    });

    app.get('/api/dashboard/members', {
      config: { auth: dashboardAccess },
      schema: {
        operationId: 'listMembers',
        tags,
        summary: "List the account's members",
        response: { 200: Type.Object({ members: Type.Array(MemberSchema) }), ...errorResponses },
      },
      handler: async (request) => ({ members: await team.list(principalOf(request, 'dashboard')) }),
    });

    app.patch('/api/dashboard/members/:user_id', {
      config: { auth: dashboardAccess },
      schema: {
        operationId: 'updateMember',
        tags,
        summary: "Change a member's role or tabs",
        description: 'A new role without `tabs` resets the tabs to the role\'s defaults. The owner cannot be changed.',
        params: UserParams,
        body: Type.Object({ role: Type.Optional(InvitableRole), tabs: Type.Optional(TabList) }),
        response: { 200: MemberSchema, ...errorResponses },
      },
      handler: async (request) => team.update(principalOf(request, 'dashboard'), request.params.user_id, request.body),
    });

    app.delete('/api/dashboard/members/:user_id', {
      config: { auth: dashboardAccess },
      schema: {
        operationId: 'removeMember',
        tags,
        summary: 'Remove a member',
        description: 'Their sessions end at once. The owner cannot be removed.',
        params: UserParams,
        response: { 200: Type.Object({ success: Type.Boolean() }), ...errorResponses },
      },
      handler: async (request) => {
        await team.remove(principalOf(request, 'dashboard'), request.params.user_id);
        return { success: true };
      },
    });
  };
}
