/**
 * The OAuth2 authorization server: registered clients, authorizations (one per approval: its
 * one-time code, then the family of tokens descended from it) and the tokens themselves. Every
 * secret is stored as its SHA-256 hash.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('oauth_clients')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('client_name', 'text', (c) => c.notNull())
    // JSON array, each URI exactly as registered (matched as strings).
    .addColumn('redirect_uris', 'text', (c) => c.notNull())
    // 'none' (public) or 'client_secret_post' (confidential).
    .addColumn('token_endpoint_auth_method', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('oauth_authorizations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull().references('oauth_clients.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    // Space-separated granted scopes.
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull().unique())
    .addColumn('code_challenge', 'text', (c) => c.notNull())
    .addColumn('code_expires_at', 'text', (c) => c.notNull())
    .addColumn('code_used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    // When nothing of the family can be used any more (the code's, then the last refresh token's expiry).
    .addColumn('expires_at', 'text', (c) => c.notNull())
    // Set when the whole family is revoked (code reuse, refresh-token reuse, revocation of a refresh token).
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('oauth_authorizations_expiry').on('oauth_authorizations').column('expires_at').execute();

  await db.schema
    .createTable('oauth_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('authorization_id', 'text', (c) => c.notNull().references('oauth_authorizations.id').onDelete('cascade'))
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    // A refresh token's rotation: set once it has been exchanged.
    .addColumn('used_at', 'text')
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('oauth_tokens_authorization').on('oauth_tokens').column('authorization_id').execute();
  await db.schema.createIndex('oauth_tokens_expiry').on('oauth_tokens').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['oauth_tokens', 'oauth_authorizations', 'oauth_clients']) await db.schema.dropTable(table).execute();
}
