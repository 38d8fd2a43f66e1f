/** Dashboard team management: invitations and members (`/api/dashboard/invitations`, `/api/dashboard/members`). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { dashboardAccess, principalOf } from '../../platform/auth/auth.ts';
import { errorResponses } from '../../platform/schemas.ts';
import type { TeamService } from './team.service.ts';
import {
  InvitationCreatedSchema,
  InvitationListSchema,
  InvitationParamsSchema,
  InvitationRevokedSchema,
  InviteSchema,
  MemberListSchema,
  MemberPatchSchema,
  MemberRemovedSchema,
  MemberViewSchema,
  UserParamsSchema,
} from './team.schemas.ts';

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
        body: InviteSchema,
        response: { 201: InvitationCreatedSchema, ...errorResponses },
      },
      handler: async (request, reply) => reply.code(201).send(await team.invite(principalOf(request, 'dashboard'), request.body)),
    });

    app.get('/api/dashboard/invitations', {
      config: { auth: dashboardAccess },
      schema: {
        operationId: 'listInvitations',
        tags,
        summary: "List the account's pending invitations",
        description: 'Invitations not yet accepted and not expired, newest first; never their token. Owner or admin with the Team tab.',
        response: { 200: InvitationListSchema, ...errorResponses },
      },
      handler: async (request) => ({ invitations: await team.listInvitations(principalOf(request, 'dashboard')) }),
    });

    app.delete('/api/dashboard/invitations/:id', {
      config: { auth: dashboardAccess },
      schema: {
        operationId: 'revokeInvitation',
        tags,
        summary: 'Revoke a pending invitation',
        description: 'Its link stops working at once. An invitation already accepted or expired answers 404. Owner or admin with the Team tab; only the owner revokes an invitation to be an admin.',
        params: InvitationParamsSchema,
        response: { 200: InvitationRevokedSchema, ...errorResponses },
      },
      handler: async (request) => {
        await team.revokeInvitation(principalOf(request, 'dashboard'), request.params.id);
        return { success: true, id: request.params.id };
      },
    });

    app.get('/api/dashboard/members', {
      config: { auth: dashboardAccess },
      schema: {
        operationId: 'listMembers',
        tags,
        summary: "List the account's members",
        response: { 200: MemberListSchema, ...errorResponses },
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
        params: UserParamsSchema,
        body: MemberPatchSchema,
        response: { 200: MemberViewSchema, ...errorResponses },
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
        params: UserParamsSchema,
        response: { 200: MemberRemovedSchema, ...errorResponses },
      },
      handler: async (request) => {
        await team.remove(principalOf(request, 'dashboard'), request.params.user_id);
        return { success: true };
      },
    });
  };
}
