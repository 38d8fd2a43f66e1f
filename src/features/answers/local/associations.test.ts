import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { buildWordAssociations, WORD_ASSOCIATIONS_FILE } from '../../../../scripts/build-word-associations.ts';

// The associations are keyed by the engine's terms: a change to stems or synonym groups changes
// them, and a file built before it would hold terms the engine no longer makes.
test('the word associations file is what the pairs give under the engine’s reading of text today', () => {
  const { text } = buildWordAssociations();
  assert.ok(text === fs.readFileSync(WORD_ASSOCIATIONS_FILE, 'utf8'), 'stale: run `node --import tsx scripts/build-word-associations.ts`');
});
