/** Where the service reads the time, so tests can move it without sleeping. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

/** The wall clock. */
export const systemClock: Clock = { now: () => Date.now() };

/** A clock that only moves when told to (tests). */
export class ManualClock implements Clock {
  constructor(private current = Date.UTC(2026, 10, 1, 12, 0, 0)) {}
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
  set(ms: number): void {
    this.current = ms;
  }
}

let lastMs = Number.NaN;
let lastIso = '';

/** ISO 8601 UTC with milliseconds: the one timestamp format stored and returned. */
export function isoAt(ms: number): string {
  // Many requests share a millisecond under load; formatting dates is not free.
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}
