/** The service's rate-limit rules (interface.md section 8), over a sliding-window store. */
import type { RateLimits } from '../../config/config.ts';
import type { Clock } from '../clock.ts';
import { RateLimitedError } from '../errors.ts';
import type { SlidingWindowStore, WindowDecision } from './sliding-window.ts';

const WINDOW_MS = 60_000;

/** Nothing when allowed at once (in-process store), a promise with a shared store; throws or rejects with RateLimitedError when refused. */
export type LimitCheck = void | Promise<void>;

export interface RateLimiter {
  /** Per API key (or OAuth token): PARLEY_RATE_KEY_PER_MIN. */
  checkCredential(credentialId: string): LimitCheck;
  /** Per client IP and endpoint: PARLEY_RATE_IP_PER_MIN. */
  checkIp(ip: string, endpoint: string): LimitCheck;
  /** Per visitor IP and bot on widget chat: PARLEY_RATE_WIDGET_PER_MIN. */
  checkWidget(ip: string, botId: string): LimitCheck;
  /** Refuses a login attempt while this IP has too many recent failures. */
  assertLoginAllowed(ip: string): Promise<void>;
  /** Counts a failed login. */
  recordLoginFailure(ip: string): Promise<void>;
}

export function createRateLimiter(store: SlidingWindowStore, limits: RateLimits, clock: Clock): RateLimiter {
  // The spec fixes Retry-After at 60; the window is 60 s, so that is always long enough.
  function decide(decision: WindowDecision, detail: string): void {
    if (!decision.allowed) throw new RateLimitedError(detail, 60);
  }
  function enforce(key: string, limit: number, detail: string): LimitCheck {
    const decision = store.hit(key, limit, WINDOW_MS, clock.now());
    if (decision instanceof Promise) return decision.then((d) => decide(d, detail));
    decide(decision, detail);
  }
  return {
    checkCredential: (id) => enforce(`key:${id}`, limits.keyPerMin, `Rate limit exceeded (${limits.keyPerMin}/min per key)`),
    checkIp: (ip, endpoint) =>
      enforce(`ip:${ip}:${endpoint}`, limits.ipPerMin, `Rate limit exceeded (${limits.ipPerMin}/min per IP address)`),
    checkWidget: (ip, botId) =>
      enforce(`widget:${ip}:${botId}`, limits.widgetPerMin, `Rate limit exceeded (${limits.widgetPerMin}/min per visitor)`),
    async assertLoginAllowed(ip) {
      const failures = await store.count(`login:${ip}`, WINDOW_MS, clock.now());
      if (failures >= limits.loginPerMin) {
        throw new RateLimitedError(`Too many failed logins (${limits.loginPerMin}/min per IP address); try again later`, 60);
      }
    },
    async recordLoginFailure(ip) {
      await store.hit(`login:${ip}`, Number.MAX_SAFE_INTEGER, WINDOW_MS, clock.now());
    },
  };
}
