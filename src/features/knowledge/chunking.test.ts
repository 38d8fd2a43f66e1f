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

  it('cuts a long list between its items and a long table between its rows, each piece under the table header', () => {
    const list = Array.from({ length: 60 }, (_, i) => `- Item ${i} is a line of about ten words in all.`).join('\n');
    const rows = Array.from({ length: 60 }, (_, i) => `| Tent ${i} | ${i + 100} cm | two people and their gear |`).join('\n');
    const passages = chunkText(`# Lists\n\nWhat we stock:\n${list}\n\n# Tables\n\n| Model | Height | Fits |\n| --- | --- | --- |\n${rows}`);
    const lists = passages.filter((p) => p.heading === 'Lists');
    const tables = passages.filter((p) => p.heading === 'Tables');
    assert.ok(lists.length >= 2 && tables.length >= 2);
    for (const p of passages) assert.ok(p.text.split(/\s+/).length <= 320, 'no passage over the cap');
    // Every line is whole, and in order.
    assert.equal(lists.map((p) => p.text).join('\n'), `What we stock:\n${list}`);
    for (const p of tables) assert.ok(p.text.startsWith('| Model | Height | Fits |\n| --- | --- | --- |\n| Tent '), p.text.slice(0, 80));
    assert.equal(tables.map((p) => p.text.split('\n').slice(2).join('\n')).join('\n'), rows);
  });

  it('reads a short line standing alone before a paragraph of plain text as a section title, and keeps it', () => {
    const pasted = 'Delivery\n\nOrders ship within 2 days.\n\nClosed on Sundays\n\nThe shop opens at 9 am on other days.\n\nThanks for reading';
    assert.deepEqual(chunkText(pasted), [
      { heading: 'Delivery', text: 'Delivery\n\nOrders ship within 2 days.' },
      { heading: 'Closed on Sundays', text: 'Closed on Sundays\n\nThe shop opens at 9 am on other days.\n\nThanks for reading' },
    ]);
    // Text with Markdown headings keeps its own.
    assert.deepEqual(chunkText('# Delivery\n\nShort line\n\nOrders ship within 2 days.'), [{ heading: 'Delivery', text: 'Short line\n\nOrders ship within 2 days.' }]);
  });

  it('splits sentences without breaking numbers or abbreviations before lower-case words', () => {
    assert.deepEqual(splitSentences('Plans cost $9.99 per month. Refunds take 5 days! Is that ok? yes e.g. fine.'), [
      'Plans cost $9.99 per month.',
      'Refunds take 5 days!',
      'Is that ok? yes e.g. fine.',
    ]);
  });
});
