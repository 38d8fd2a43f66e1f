/**
 * Word associations between how visitors ask and how help centres answer ("money back" and
 * "refund", "nicked" and "stolen"), learnt from 4,802 question and answer pairs written for Parley
 * by `scripts/build-word-associations.ts`: for a question's term, the answer terms it goes with and
 * how strongly, t(question term | answer term) of a translation model (IBM Model 1).
 */
import fs from 'node:fs';

const FILE = new URL('./data/word-associations.tsv', import.meta.url);

let loaded: Map<string, Map<string, number>> | undefined;

/** Question term → answer terms with their association strength (0–1). */
export function wordAssociations(): Map<string, Map<string, number>> {
  if (loaded) return loaded;
  loaded = new Map();
  for (const line of fs.readFileSync(FILE, 'utf8').split('\n')) {
    const [asked, answered, strength] = line.split('\t');
    if (!asked || !answered || !strength) continue;
    let row = loaded.get(asked);
    if (!row) loaded.set(asked, (row = new Map()));
    row.set(answered, Number(strength));
  }
  return loaded;
}
