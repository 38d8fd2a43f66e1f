import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chunkText, splitSentences } from './chunking.ts';

describe('chunking', () => {
  it('keeps the heading path with each passage', () => {
    const passages = chunkText('Intro line.\n\n# Shipping\n\nWe ship fast.\n\n## International\n\nCanada takes 5 days.\n\n# Returns\n\n30 days.');
    assert.deepEqual(passages, [
      { heading: '', text: 'Intro line.' },
      { heading: 'Shipping', text: 'We ship fast.' },
      { heading: 'Shipping > International', text: 'Canada takes 5 days.' },
      { heading: 'Returns', text: '30 days.' },
    ]);
  });

  it('groups short paragraphs and splits long ones between sentences', () => {
    const sentence = 'This sentence has exactly eight words in it. ';
    const long = sentence.repeat(100).trim();
    const passages = chunkText(`# Big\n\n${long}\n\nShort one.\n\nShort two.`);
    for (const p of passages) assert.ok(p.text.split(/\s+/).length <= 320, 'no passage over the cap');
    assert.ok(passages.length >= 3);
    assert.ok(passages.every((p) => p.heading === 'Big'));
    assert.equal(passages.map((p) => p.text).join(' ').replace(/\s+/g, ' '), `${long} Short one. Short two.`);
  });

  it('splits sentences without breaking numbers or abbreviations before lower-case words', () => {
    assert.deepEqual(splitSentences('Plans cost $9.99 per month. Refunds take 5 days! Is that ok? yes e.g. fine.'), [
      'Plans cost $9.99 per month.',
      'Refunds take 5 days!',
      'Is that ok? yes e.g. fine.',
    ]);
  });
});
