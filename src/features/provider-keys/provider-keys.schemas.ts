/** Bring-your-own provider key bodies and views: the key goes in, and never comes out. */
import { Type, type Static } from 'typebox';
import { TimestampSchema } from '../../platform/schemas.ts';
import { KEY_PROVIDERS } from '../answers/providers/provider-routing.ts';

export const ProviderSchema = Type.Enum(KEY_PROVIDERS, { description: 'openai, anthropic, google or mistral' });

export const BotIdParamsSchema = Type.Object({ bot_id: Type.String({ format: 'uuid' }) });
export const ProviderKeyParamsSchema = Type.Object({ bot_id: Type.String({ format: 'uuid' }), provider: ProviderSchema });

export const ProviderKeyPutSchema = Type.Object({ api_key: Type.String({ minLength: 1, maxLength: 500, description: 'write-only' }) });
export type ProviderKeyPut = Static<typeof ProviderKeyPutSchema>;

/** Which provider has a key, and since when: never the key. */
export const ProviderKeyViewSchema = Type.Object({ provider: ProviderSchema, created_at: TimestampSchema });
export type ProviderKeyView = Static<typeof ProviderKeyViewSchema>;

export const ProviderKeyListSchema = Type.Object({ providers: Type.Array(ProviderKeyViewSchema) });
export const ProviderKeyRemovedSchema = Type.Object({ success: Type.Boolean(), provider: ProviderSchema });
