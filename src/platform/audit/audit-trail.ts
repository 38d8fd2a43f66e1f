/**
 * The audit log of public API calls (interface.md section 5). Entries are buffered in memory and
 * written in batches off the request path; a failed batch stays buffered and is retried, and a
 * graceful shutdown writes what is left.
 */
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DatabaseHandle } from '../../db/database.ts';
import type { Insertable } from 'kysely';
import type { AuditLogTable } from '../../db/schema.ts';
import { isoAt, type Clock } from '../clock.ts';
import { startPeriodicFlush } from '../periodic-flush.ts';
import { appendRouteHook } from '../route-hooks.ts';

export type AuditEntry = Insertable<AuditLogTable>;

const FLUSH_AT = 2000;
/** Rows per write: after a long outage the buffer is written in steps, not one huge transaction. */
const WRITE_AT_MOST = 5000;

export interface AuditTrail {
  record(entry: AuditEntry): void;
  flush(): Promise<void>;
  close(): Promise<void>;
}

export function createAuditTrail({ appendRows, flushMs, log }: { appendRows: DatabaseHandle['appendRows']; flushMs: number; log?: FastifyBaseLogger }): AuditTrail {
  let buffer: AuditEntry[] = [];

  async function write(): Promise<void> {
    while (buffer.length > 0) {
      const batch = buffer.slice(0, WRITE_AT_MOST);
      buffer = buffer.slice(batch.length);
      try {
        await appendRows('audit_log', batch);
      } catch (err) {
        // Back in front of what arrived meanwhile; the periodic flush retries.
        buffer = batch.concat(buffer);
        throw err;
      }
    }
  }
  const flusher = startPeriodicFlush('audit', flushMs, write, log);

  return {
    record(entry) {
      buffer.push(entry);
      if (buffer.length >= FLUSH_AT) flusher.nudge();
    },
    flush: () => flusher.flushNow(),
    close: () => flusher.stop(),
  };
}

/** Records every call under `/api/v1/` (matched or not) when its response has been sent. */
export function installAudit(app: FastifyInstance, trail: AuditTrail, clock: Clock): void {
  function record(request: FastifyRequest, reply: FastifyReply, endpoint: string): void {
    // Refused calls are recorded with the credential that made them, not only the ones let through.
    const principal = request.principal ?? request.presentedBy;
    trail.record({
      request_id: request.id,
      key_id: principal?.kind === 'api_key' ? principal.keyId : null,
      bot_id: principal && 'botId' in principal ? principal.botId : request.auditBotId,
      account_id: principal?.accountId ?? null,
      method: request.method,
      endpoint,
      ip: request.ip,
      status_code: reply.statusCode,
      latency_ms: Math.round(reply.elapsedTime * 1000) / 1000,
      created_at: isoAt(clock.now()),
    });
  }

  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/v1/')) return;
    const endpoint = route.url;
    appendRouteHook(route, 'onResponse', function auditCall(request: FastifyRequest, reply: FastifyReply, done: () => void) {
      record(request, reply, endpoint);
      done();
    });
  });
  app.addHook('onResponse', (request, reply, done) => {
    if (request.is404 && request.url.startsWith('/api/v1/')) record(request, reply, request.url.split('?')[0]!.slice(0, 200));
    done();
  });
}
