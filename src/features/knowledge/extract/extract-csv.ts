/**
 * CSV as text: the first row names the columns and every later row becomes one line of
 * `column: value; column: value` (empty cells left out), rows separated by blank lines so a
 * chunker never splits one.
 */
import { parse } from 'csv-parse/sync';
import { UnprocessableError } from '../../../platform/errors.ts';

/** Renders CSV text (already decoded) as one `header: value; …` line per data row. */
export function extractCsv(text: string): string {
  let rows: string[][];
  try {
    rows = parse(text, {
      bom: true,
      delimiter: guessDelimiter(text),
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      trim: true,
    }) as string[][];
  } catch (err) {
    throw new UnprocessableError(`The CSV file could not be parsed: ${(err as Error).message}`);
  }
  const [header, ...data] = rows;
  if (!header) return '';
  const names = header.map((name, i) => name || `Column ${i + 1}`);
  if (data.length === 0) return names.join('; ');
  return data
    .map((row) =>
      row
        .map((value, i) => (value ? `${names[i] ?? `Column ${i + 1}`}: ${value.replace(/\s*\n\s*/g, ' ')}` : ''))
        .filter(Boolean)
        .join('; '),
    )
    .filter(Boolean)
    .join('\n\n');
}

/** The delimiter that occurs most often outside quotes in the first line (comma on a tie). */
function guessDelimiter(text: string): string {
  const counts = new Map<string, number>([[',', 0], [';', 0], ['\t', 0], ['|', 0]]);
  let quoted = false;
  for (const char of text.replace(/^\uFEFF/, '')) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && counts.has(char)) counts.set(char, counts.get(char)! + 1);
  }
  let best = ',';
  for (const [char, count] of counts) if (count > counts.get(best)!) best = char;
  return best;
}
