/** API key bodies and views (decisions.md, "Responses that interface.md does not show"). */
import { Type, type Static } from 'typebox';
import { SCOPES } from '../../platform/auth/principal.ts';
import { EXAMPLE, NullableTimestampSchema, TimestampSchema, withExamples } from '../../platform/schemas.ts';

const ScopeSchema = Type.Enum(SCOPES);
const ScopesSchema = Type.Array(ScopeSchema, { minItems: 1, maxItems: 4, uniqueItems: true });
const AllowedIpsSchema = Type.Array(Type.String({ minLength: 2, maxLength: 64, description: 'an IP address or CIDR range, IPv4 or IPv6' }), {
  maxItems: 100,
  description: 'where the key may be used from; empty: anywhere',
});
const KeyName = Type.String({ minLength: 1, maxLength: 100 });

const newKey = { name: 'Backend', scopes: ['chat', 'read'] as Array<(typeof SCOPES)[number]>, allowed_ips: ['203.0.113.0/24'] };

export const ApiKeyCreateSchema = withExamples(
  Type.Object({
    name: KeyName,
    scopes: Type.Optional(ScopesSchema),
    allowed_ips: Type.Optional(AllowedIpsSchema),
  }),
  newKey,
);
export type ApiKeyCreate = Static<typeof ApiKeyCreateSchema>;

export const DashboardKeyCreateSchema = withExamples(Type.Object({ bot_id: Type.String({ format: 'uuid' }), ...ApiKeyCreateSchema.properties }), {
  bot_id: EXAMPLE.botId,
  ...newKey,
});

export const ApiKeyPatchSchema = withExamples(
  Type.Object({
    name: Type.Optional(KeyName),
    scopes: Type.Optional(ScopesSchema),
    allowed_ips: Type.Optional(AllowedIpsSchema),
  }),
  { scopes: ['read'], allowed_ips: ['203.0.113.7', '2001:db8::/32'] },
);
export type ApiKeyPatch = Static<typeof ApiKeyPatchSchema>;

const keyFields = {
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String(),
  scopes: Type.Array(Type.String()),
  allowed_ips: Type.Array(Type.String()),
  bot_id: Type.String(),
  created_at: TimestampSchema,
  created_by: Type.Union([Type.String(), Type.Null()], {
    description: 'the user the key acts for (it does no more than their dashboard tabs allow); null for a key made before makers were recorded, which acts for the whole account until rotated',
  }),
};

const keyExample = {
  id: EXAMPLE.keyId,
  name: 'Backend',
  prefix: 'parley_sk_Ab12Cd',
  scopes: ['chat', 'read'],
  allowed_ips: ['203.0.113.0/24'],
  bot_id: EXAMPLE.botId,
  created_at: EXAMPLE.time,
  created_by: EXAMPLE.userId,
};

/** A key as listed: never its secret. */
export const ApiKeyViewSchema = withExamples(Type.Object({ ...keyFields, last_used_at: NullableTimestampSchema, revoked_at: NullableTimestampSchema }), {
  ...keyExample,
  last_used_at: EXAMPLE.later,
  revoked_at: null,
});
export type ApiKeyView = Static<typeof ApiKeyViewSchema>;

/** The one response that carries the secret: creation. */
export const ApiKeyCreatedSchema = withExamples(Type.Object({ ...keyFields, key: Type.String({ description: 'the secret, shown only here' }) }), {
  ...keyExample,
  key: 'parley_sk_Ab12Cd3eF4gH5iJ6kL7mN8oP9qR0sT1uV2wX3yZ4aB5c',
});

export const ApiKeyListSchema = withExamples(Type.Object({ keys: Type.Array(ApiKeyViewSchema) }), {
  keys: [{ ...keyExample, last_used_at: EXAMPLE.later, revoked_at: null }],
});
export const KeyIdParamsSchema = Type.Object({ id: Type.String({ format: 'uuid' }) });
export const KeyRevokedSchema = withExamples(Type.Object({ success: Type.Boolean(), id: Type.String() }), { success: true, id: EXAMPLE.keyId });
