/** API key bodies and views (decisions.md, "Responses that interface.md does not show"). */
import { Type, type Static } from 'typebox';
import { SCOPES } from '../../platform/auth/principal.ts';
import { NullableTimestampSchema, TimestampSchema } from '../../platform/schemas.ts';

const ScopeSchema = Type.Enum(SCOPES);
const ScopesSchema = Type.Array(ScopeSchema, { minItems: 1, maxItems: 4, uniqueItems: true });
const AllowedIpsSchema = Type.Array(Type.String({ minLength: 2, maxLength: 64 }), { maxItems: 100 });
const KeyName = Type.String({ minLength: 1, maxLength: 100 });

export const ApiKeyCreateSchema = Type.Object({
  name: KeyName,
  scopes: Type.Optional(ScopesSchema),
  allowed_ips: Type.Optional(AllowedIpsSchema),
});
export type ApiKeyCreate = Static<typeof ApiKeyCreateSchema>;

export const DashboardKeyCreateSchema = Type.Object({ bot_id: Type.String({ format: 'uuid' }), ...ApiKeyCreateSchema.properties });

export const ApiKeyPatchSchema = Type.Object({
  name: Type.Optional(KeyName),
  scopes: Type.Optional(ScopesSchema),
  allowed_ips: Type.Optional(AllowedIpsSchema),
});
export type ApiKeyPatch = Static<typeof ApiKeyPatchSchema>;

const keyFields = {
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String(),
  scopes: Type.Array(Type.String()),
  allowed_ips: Type.Array(Type.String()),
  bot_id: Type.String(),
  created_at: TimestampSchema,
};

/** A key as listed: never its secret. */
export const ApiKeyViewSchema = Type.Object({ ...keyFields, last_used_at: NullableTimestampSchema, revoked_at: NullableTimestampSchema });
export type ApiKeyView = Static<typeof ApiKeyViewSchema>;

/** The one response that carries the secret: creation. */
export const ApiKeyCreatedSchema = Type.Object({ ...keyFields, key: Type.String() });

export const ApiKeyListSchema = Type.Object({ keys: Type.Array(ApiKeyViewSchema) });
export const KeyIdParamsSchema = Type.Object({ id: Type.String({ format: 'uuid' }) });
export const KeyRevokedSchema = Type.Object({ success: Type.Boolean(), id: Type.String() });
