/** Invitations and members as the team API shows them; an invitation's token leaves the server once, when it is created. */
import { Type } from 'typebox';
import { EXAMPLE, TimestampSchema, withExamples } from '../../platform/schemas.ts';
import { TABS } from '../../platform/auth/principal.ts';

const TabListSchema = Type.Array(Type.Enum(TABS), { uniqueItems: true });
const InvitableRoleSchema = Type.Union([Type.Literal('admin'), Type.Literal('agent')]);

const EXAMPLE_INVITATION_ID = '2d4f6a8c-1e3b-4d5f-9a7c-8e6b4d2f0a1c';
const EXAMPLE_EXPIRY = '2026-03-09T09:30:00.000Z';

export const InviteSchema = withExamples(
  Type.Object({ email: Type.String({ format: 'email', maxLength: 254 }), role: InvitableRoleSchema, tabs: Type.Optional(TabListSchema) }),
  { email: 'sam@example.com', role: 'agent', tabs: ['inbox'] },
);

export const InvitationCreatedSchema = withExamples(
  Type.Object({ id: Type.String(), email: Type.String(), role: Type.String(), tabs: Type.Array(Type.String()), token: Type.String(), expires_at: TimestampSchema }),
  { id: EXAMPLE_INVITATION_ID, email: 'sam@example.com', role: 'agent', tabs: ['inbox'], token: 'parley_inv_d9w-iXYgoCRbyBtmU6dKHh0WxJjRIkbvkH8vf8CDimo', expires_at: EXAMPLE_EXPIRY },
);

/** A pending invitation: everything but its token, which only its creator ever saw. */
export const InvitationSchema = Type.Object({
  id: Type.String(),
  email: Type.String(),
  role: Type.String(),
  tabs: Type.Array(Type.String()),
  created_at: TimestampSchema,
  expires_at: TimestampSchema,
});
const invitationExample = { id: EXAMPLE_INVITATION_ID, email: 'sam@example.com', role: 'agent', tabs: ['inbox'], created_at: EXAMPLE.time, expires_at: EXAMPLE_EXPIRY };

export const InvitationListSchema = withExamples(Type.Object({ invitations: Type.Array(InvitationSchema) }), { invitations: [invitationExample] });
export const InvitationRevokedSchema = withExamples(Type.Object({ success: Type.Boolean(), id: Type.String() }), { success: true, id: EXAMPLE_INVITATION_ID });
export const InvitationParamsSchema = Type.Object({ id: Type.String({ format: 'uuid' }) });

export const MemberSchema = Type.Object({
  user_id: Type.String(),
  email: Type.String(),
  name: Type.String(),
  role: Type.String(),
  tabs: Type.Array(Type.String()),
  created_at: TimestampSchema,
});
const memberExample = { user_id: EXAMPLE.userId, email: 'ada@example.com', name: 'Ada', role: 'owner', tabs: [...TABS], created_at: EXAMPLE.time };

export const MemberViewSchema = withExamples(MemberSchema, { ...memberExample, user_id: '8f6d4b2a-0c1e-4f3a-9b5d-7e9c1a3b5d7f', email: 'sam@example.com', name: 'Sam', role: 'agent', tabs: ['inbox', 'knowledge'] });
export const MemberListSchema = withExamples(Type.Object({ members: Type.Array(MemberSchema) }), { members: [memberExample] });
export const MemberPatchSchema = withExamples(Type.Object({ role: Type.Optional(InvitableRoleSchema), tabs: Type.Optional(TabListSchema) }), { tabs: ['inbox', 'knowledge'] });
export const MemberRemovedSchema = withExamples(Type.Object({ success: Type.Boolean() }), { success: true });
export const UserParamsSchema = Type.Object({ user_id: Type.String({ format: 'uuid' }) });
