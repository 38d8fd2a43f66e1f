/**
 * Attaching hooks to routes as they are declared (from an `onRoute` hook), so that per-route rules
 * cost nothing on routes that do not need them and read no route options per request.
 */
import type { RouteOptions } from 'fastify';

type HookName = 'onRequest' | 'preHandler' | 'onSend' | 'onResponse';

export function appendRouteHook(route: RouteOptions, name: HookName, hook: unknown): void {
  const existing = route[name] as unknown;
  const list = existing === undefined ? [] : Array.isArray(existing) ? existing : [existing];
  (route as unknown as Record<HookName, unknown[]>)[name] = [...list, hook];
}
