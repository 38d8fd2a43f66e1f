import { test } from 'node:test';
import assert from 'node:assert/strict';
import { characterCount, firstCharacters } from './characters.ts';

test('characters are counted and cut as code points: an emoji is one, and never split', () => {
  assert.equal(characterCount('héllo'), 5);
  assert.equal(characterCount('😀😀a'), 3);
  assert.equal(characterCount('𠀋'), 1);
  assert.equal(firstCharacters('a😀b', 2), 'a😀');
  assert.equal(firstCharacters('😀'.repeat(100), 80), '😀'.repeat(80));
  assert.equal(firstCharacters('short', 80), 'short');
  // A lone surrogate (already broken text) counts as one character and is kept as it is.
  assert.equal(characterCount('a\uD83D'), 2);
  assert.equal(firstCharacters('\uD83Dx', 1), '\uD83D');
});
