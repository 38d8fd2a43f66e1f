import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { stemmer } from 'stemmer';
import { ENGLISH_LOOKALIKES, TRANSLATED_CONCEPTS } from './translated-concepts.ts';

test('every translated word the English stemmer takes for a frequent English word is listed as a lookalike', () => {
  // The English vectors' word list, most frequent first (the layout scripts/build-word-vectors.mjs writes).
  const file = fs.readFileSync(new URL('../semantic/data/english-vectors.bin', import.meta.url));
  const words = file.toString('utf8', 16, 16 + file.readUInt32LE(12)).split('\n');
  const englishStems = new Set(words.slice(0, 20_000).map((w) => stemmer(w)));
  const missing: string[] = [];
  for (const [head, byLanguage] of TRANSLATED_CONCEPTS) {
    for (const list of Object.values(byLanguage)) {
      for (const word of list!.split(' ')) {
        if (englishStems.has(stemmer(word)) && stemmer(word) !== stemmer(head) && !ENGLISH_LOOKALIKES.has(word)) missing.push(word);
      }
    }
  }
  assert.deepEqual(missing, []);
});
