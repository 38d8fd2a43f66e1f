/**
 * Table types shared by SQLite and PostgreSQL. Storage is dialect-neutral: ids are UUID text,
 * timestamps ISO 8601 UTC text (they sort as strings), booleans 0/1 integers, JSON as text.
 */
import type { Generated } from 'kysely';

export interface AccountsTable {
  id: string;
  name: string;
  created_at: string;
}

export interface UsersTable {
  id: string;
  /** Lower-cased. */
  email: string;
  name: string;
  password_hash: string;
  created_at: string;
}

export interface MembershipsTable {
  account_id: string;
  user_id: string;
  role: 'owner' | 'admin' | 'agent';
  /** JSON array of dashboard tab ids. */
  tabs: string;
  created_at: string;
}

export interface InvitationsTable {
  id: string;
  account_id: string;
  email: string;
  role: 'admin' | 'agent';
  tabs: string;
  token_hash: string;
  invited_by: string;
  created_at: string;
  expires_at: string;
  accepted_at: string | null;
}

export interface DashboardSessionsTable {
  id: string;
  token_hash: string;
  user_id: string;
  account_id: string;
  created_at: string;
  expires_at: string;
}

export interface BotsTable {
  id: string;
  account_id: string;
  name: string;
  welcome_message: string;
  primary_color: string;
  selected_model: string;
  system_instructions: string;
  widget_style: string;
  response_language: string;
  strict_mode: number;
  lead_capture_enabled: number;
  /** JSON array of strings. */
  lead_fields: string;
  calendar_scheduling_enabled: number;
  meeting_provider: string | null;
  meeting_url: string | null;
  /** JSON array of host names. */
  allowed_domains: string;
  paused: number;
  monthly_message_quota: number;
  created_at: string;
  updated_at: string;
}

export interface ApiKeysTable {
  id: string;
  bot_id: string;
  account_id: string;
  name: string;
  key_hash: string;
  prefix: string;
  /** JSON array. */
  scopes: string;
  /** JSON array, exactly as sent. */
  allowed_ips: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  /** The user who made the key (null: made before makers were recorded; it acts for the account). */
  created_by: string | null;
}

export interface AuditLogTable {
  id: Generated<number>;
  request_id: string;
  key_id: string | null;
  bot_id: string | null;
  account_id: string | null;
  method: string;
  endpoint: string;
  ip: string;
  status_code: number;
  latency_ms: number;
  created_at: string;
}

export interface UsageDailyTable {
  key_id: string;
  bot_id: string;
  /** YYYY-MM-DD (UTC). */
  day: string;
  messages: number;
  api_calls: number;
}

export interface KnowledgeSourcesTable {
  id: string;
  bot_id: string;
  /** `catalog`: a catalog item's text, managed by the catalog and left out of knowledge lists. */
  type: 'text' | 'url' | 'file' | 'catalog';
  name: string;
  url: string | null;
  status: 'trained' | 'ready' | 'processing' | 'failed';
  /** Why a source failed, for the dashboard. */
  status_detail: string | null;
  content: string;
  char_count: number;
  crawl_schedule: 'hourly' | 'daily' | 'weekly' | null;
  next_crawl_at: string | null;
  last_crawled_at: string | null;
  /** Which instance is (re)indexing the source, and until when. */
  lease_owner: string | null;
  lease_until: string | null;
  created_at: string;
  updated_at: string;
}

/** A passage's embedding by one model (float32, little-endian, unit length). */
export interface KnowledgeVectorsTable {
  passage_id: string;
  /** The embedding model, e.g. 'parley-local:glove-100' or 'openai:text-embedding-3-small'. */
  model: string;
  bot_id: string;
  vector: Buffer;
}

export interface KnowledgePassagesTable {
  id: string;
  source_id: string;
  bot_id: string;
  position: number;
  /** The source's title when indexed. */
  title: string;
  /** Heading path, e.g. "Billing > Refunds". */
  heading: string;
  body: string;
}

export interface BotProviderKeysTable {
  bot_id: string;
  /** 'openai', 'anthropic', 'google' or 'mistral'. */
  provider: string;
  /** AES-256-GCM under the master key (`platform/encryption.ts`); never the plain key. */
  encrypted_key: string;
  created_at: string;
}

export interface ChatSessionsTable {
  id: string;
  bot_id: string;
  account_id: string;
  /** The caller's session_id (free-form, unique within the bot). */
  session_key: string;
  visitor_id: string | null;
  visitor_timezone: string;
  /** JSON object sent with streamed messages, or null. */
  metadata: string | null;
  status: 'active' | 'ended';
  /** 1 while an operator has taken the session over. */
  taken_over: number;
  message_count: number;
  started_at: string;
  last_activity_at: string;
  ended_at: string | null;
  /** JSON: lead capture's progress in this session (see features/leads). */
  lead_state: string | null;
  /** 1 when a visitor (widget access) opened it: only such sessions answer to widget calls. */
  opened_by_visitor: Generated<number>;
}

export interface ChatMessagesTable {
  /** Storage order: ties on created_at keep the order messages were stored in. */
  seq: Generated<number>;
  id: string;
  session_id: string;
  bot_id: string;
  role: 'user' | 'assistant';
  /** Who wrote it: the visitor, the bot's engine, or an operator from the inbox. */
  author: 'visitor' | 'bot' | 'operator';
  content: string;
  feedback_rating: 'up' | 'down' | null;
  latency_ms: number | null;
  /** The engine that answered, e.g. 'parley-local'. */
  engine: string | null;
  /** JSON array of {title, url}, for assistant messages. */
  sources: string | null;
  /** 1 on a bot answer that said it did not know (parley-local's refusal). */
  unanswered?: number | null;
  created_at: string;
}

export interface MediaFilesTable {
  id: string;
  session_id: string;
  bot_id: string;
  file_name: string;
  mime_type: string;
  size_bytes: number;
  /** Where the bytes are in media storage. */
  storage_key: string;
  /** Text of a document (PDF, text, CSV), for the answer engines. */
  extracted_text: string | null;
  created_at: string;
}

export interface OutboxEventsTable {
  seq: Generated<number>;
  id: string;
  bot_id: string;
  account_id: string;
  /** The caller's session_id. */
  session_id: string;
  event: 'session.started' | 'session.ended' | 'message.user' | 'message.assistant' | 'lead.created';
  /** JSON object: the envelope's `data`. */
  data: string;
  occurred_at: string;
}

export interface WebhooksTable {
  id: string;
  bot_id: string;
  url: string;
  /** JSON array of event names. */
  events: string;
  /** The signing secret, encrypted under the master key. */
  secret: string;
  created_at: string;
  updated_at: string;
}

export interface WebhookDeliveriesTable {
  /** Also the `X-Service-Delivery` header of every attempt. */
  id: string;
  webhook_id: string;
  bot_id: string;
  event: string;
  /** The exact bytes every attempt sends. */
  body: string;
  status: 'pending' | 'delivered' | 'dropped';
  attempts: number;
  next_attempt_at: string | null;
  lease_owner: string | null;
  lease_until: string | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
}

export interface WebhookAttemptsTable {
  seq: Generated<number>;
  delivery_id: string;
  attempt: number;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  response_excerpt: string | null;
  created_at: string;
}

export interface LeadsTable {
  id: string;
  bot_id: string;
  session_row_id: string;
  session_key: string;
  name: string;
  email: string;
  phone: string;
  /** JSON object of custom fields. */
  extra: string;
  created_at: string;
  updated_at: string;
}

export interface CatalogItemsTable {
  id: string;
  bot_id: string;
  kind: 'product' | 'media';
  external_id: string | null;
  name: string | null;
  title: string | null;
  description: string | null;
  price: number | null;
  currency: string | null;
  sku: string | null;
  url: string | null;
  image_url: string | null;
  mime_type: string | null;
  /** JSON object. */
  metadata: string;
  source_id: string;
  created_at: string;
  updated_at: string;
}

export interface CatalogSecretsTable {
  bot_id: string;
  /** Encrypted under the master key. */
  secret: string;
  created_at: string;
}

export interface MonthlyMessagesTable {
  account_id: string;
  /** YYYY-MM (UTC). */
  month: string;
  user_messages: number;
}

/** A bot's activity in one hour (UTC), kept in step with the rows it counts (features/analytics). */
export interface AnalyticsHourlyTable {
  bot_id: string;
  /** YYYY-MM-DDTHH */
  hour: string;
  user_messages: number;
  bot_messages: number;
  /** Session visits that started in the hour. */
  sessions: number;
  /** Those visits in which the visitor sent two messages or more. */
  multi_turn_sessions: number;
  leads: number;
  /** Answers written by the bot's engine (not operators). */
  bot_answers: number;
  unanswered_answers: number;
  /** Bot answers that cited at least one source. */
  grounded_answers: number;
  /** Visitor messages the engine failed to answer (nothing stored but this count). */
  failed_answers: number;
  slow_answers: number;
  feedback_up: number;
  feedback_down: number;
}

export interface OAuthClientsTable {
  /** The public `client_id`. */
  id: string;
  client_name: string;
  /** JSON array of the registered redirect URIs, exactly as registered. */
  redirect_uris: string;
  token_endpoint_auth_method: 'none' | 'client_secret_post' | 'client_secret_basic';
  /** SHA-256 of the `parley_cs_` secret; null for a public client. */
  secret_hash: string | null;
  created_at: string;
}

/** One approval: its one-time code, then the family of tokens issued from it. */
export interface OAuthAuthorizationsTable {
  id: string;
  client_id: string;
  user_id: string;
  account_id: string;
  /** Space-separated granted scopes. */
  scopes: string;
  redirect_uri: string;
  code_hash: string;
  code_challenge: string;
  code_expires_at: string;
  code_used_at: string | null;
  created_at: string;
  /** When nothing of the family is usable any more (rows past it may be deleted). */
  expires_at: string;
  /** Set when the whole family is revoked. */
  revoked_at: string | null;
}

export interface OAuthTokensTable {
  id: string;
  /** SHA-256 of the `parley_oat_` or `parley_ort_` token. */
  token_hash: string;
  kind: 'access' | 'refresh';
  authorization_id: string;
  /** Space-separated. */
  scopes: string;
  created_at: string;
  expires_at: string;
  /** Set when a refresh token has been rotated (exchanged). */
  used_at: string | null;
  revoked_at: string | null;
}

/** A file kept in the database (`PARLEY_STORAGE=database`); its bytes are in `stored_file_chunks`. */
export interface StoredFilesTable {
  key: string;
  size_bytes: number;
  chunk_count: number;
  created_at: string;
}

export interface StoredFileChunksTable {
  key: string;
  seq: number;
  data: Buffer;
}

export interface Database {
  accounts: AccountsTable;
  users: UsersTable;
  memberships: MembershipsTable;
  invitations: InvitationsTable;
  dashboard_sessions: DashboardSessionsTable;
  bots: BotsTable;
  api_keys: ApiKeysTable;
  audit_log: AuditLogTable;
  usage_daily: UsageDailyTable;
  knowledge_sources: KnowledgeSourcesTable;
  knowledge_passages: KnowledgePassagesTable;
  knowledge_vectors: KnowledgeVectorsTable;
  bot_provider_keys: BotProviderKeysTable;
  chat_sessions: ChatSessionsTable;
  chat_messages: ChatMessagesTable;
  media_files: MediaFilesTable;
  outbox_events: OutboxEventsTable;
  monthly_messages: MonthlyMessagesTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  leads: LeadsTable;
  catalog_items: CatalogItemsTable;
  catalog_secrets: CatalogSecretsTable;
  oauth_clients: OAuthClientsTable;
  oauth_authorizations: OAuthAuthorizationsTable;
  oauth_tokens: OAuthTokensTable;
  analytics_hourly: AnalyticsHourlyTable;
  stored_files: StoredFilesTable;
  stored_file_chunks: StoredFileChunksTable;
}
