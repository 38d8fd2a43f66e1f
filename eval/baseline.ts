/**
 * The yardstick for retrieval: a plain BM25 library (MiniSearch, with its fuzzy and prefix matching)
 * over 800-character passages, no answer logic. Its hit@1 is the document of its best passage.
 */
import MiniSearch from 'minisearch';

const PASSAGE_CHARS = 800;

/** One business's documents as a BM25 index; `best` names the document of the top passage. */
export function createBaselineIndex(documents: { file: string; title: string; text: string }[]) {
  const index = new MiniSearch<{ id: number; file: string; title: string; text: string }>({
    fields: ['title', 'text'],
    storeFields: ['file'],
    searchOptions: { fuzzy: 0.2, prefix: true, boost: { title: 2 } },
  });
  let id = 0;
  for (const doc of documents) {
    for (const text of passagesOf(doc.text)) index.add({ id: id++, file: doc.file, title: doc.title, text });
  }
  return {
    best(query: string): string | undefined {
      return index.search(query)[0]?.file as string | undefined;
    },
  };
}

/** Consecutive slices of about 800 characters, cut at white space. */
function passagesOf(text: string): string[] {
  const out: string[] = [];
  let rest = text.trim();
  while (rest.length > PASSAGE_CHARS) {
    let cut = rest.lastIndexOf(' ', PASSAGE_CHARS);
    if (cut < PASSAGE_CHARS / 2) cut = PASSAGE_CHARS;
    out.push(rest.slice(0, cut));
    rest = rest.slice(cut).trimStart();
  }
  if (rest) out.push(rest);
  return out;
}
