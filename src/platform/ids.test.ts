import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { timeOrderedUuid } from './ids.ts';

describe('time-ordered UUIDs', () => {
  it('are version 7 UUIDs with the RFC 9562 variant and the time in their first 48 bits', () => {
    const at = Date.UTC(2026, 10, 24, 12, 0, 0);
    const id = timeOrderedUuid(at);
    assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(parseInt(id.slice(0, 8) + id.slice(9, 13), 16), at);
  });

  it('sort by creation time and never repeat', () => {
    const ids = Array.from({ length: 1000 }, (_, i) => timeOrderedUuid(1_700_000_000_000 + i * 7));
    assert.deepEqual([...ids].sort(), ids);
    assert.equal(new Set(Array.from({ length: 10_000 }, () => timeOrderedUuid())).size, 10_000);
  });
});
