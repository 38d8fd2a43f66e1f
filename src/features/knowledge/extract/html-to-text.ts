/**
 * Turns a DOM subtree into plain text a chunker can split: headings become markdown-style `# `
 * lines, paragraphs and other blocks are separated by blank lines, list items and table rows stay
 * on consecutive lines.
 */

/** The slice of the DOM this module reads (linkedom's and the browser's nodes both fit). */
export interface DomNode {
  nodeType: number;
  nodeName: string;
  nodeValue: string | null;
  childNodes: ArrayLike<DomNode>;
  parentNode: DomNode | null;
  getAttribute?(name: string): string | null;
}

const TEXT_NODE = 3;
const ELEMENT_NODE = 1;

/** Elements whose content is never reading text. */
const SKIPPED = new Set([
  'SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'MATH', 'IFRAME', 'OBJECT', 'EMBED', 'CANVAS', 'VIDEO', 'AUDIO',
  'BUTTON', 'SELECT', 'TEXTAREA', 'INPUT', 'FORM', 'NAV', 'DIALOG', 'MAP', 'HEAD', 'TITLE', 'LINK', 'META',
]);
const BLOCKS = new Set([
  'HTML', 'BODY', 'MAIN', 'ARTICLE', 'SECTION', 'DIV', 'P', 'BLOCKQUOTE', 'ASIDE', 'HEADER', 'FOOTER', 'ADDRESS',
  'UL', 'OL', 'DL', 'DT', 'DD', 'FIGURE', 'FIGCAPTION', 'TABLE', 'THEAD', 'TBODY', 'TFOOT', 'CAPTION', 'DETAILS',
  'SUMMARY', 'FIELDSET', 'LEGEND', 'HR', 'CENTER', 'HGROUP',
]);
const HEADINGS: Record<string, number> = { H1: 1, H2: 2, H3: 3, H4: 4, H5: 5, H6: 6 };
type BlockKind = 'paragraph' | 'heading' | 'item' | 'row' | 'pre';

interface Block {
  kind: BlockKind;
  text: string;
}

/** Collects the blocks of a subtree in reading order. */
class BlockWriter {
  readonly blocks: Block[] = [];
  private inline = '';
  private prefix = '';
  private kind: BlockKind = 'paragraph';

  /** Ends the current block (if it has text) and starts a new one of the given kind. */
  flush(nextKind: BlockKind = 'paragraph', nextPrefix = ''): void {
    const lines = this.inline
      .split('\n')
      .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
      .filter((line) => line.length > 0);
    if (lines.length > 0) {
      const text = this.kind === 'heading' ? lines.join(' ') : lines.join('\n');
      this.blocks.push({ kind: this.kind, text: this.prefix + text });
      this.prefix = '';
      this.kind = 'paragraph';
    }
    this.inline = '';
    if (nextPrefix || nextKind !== 'paragraph') {
      this.prefix = nextPrefix;
      this.kind = nextKind;
    }
  }

  text(value: string): void {
    this.inline += value.replace(/\s+/g, ' ');
  }

  raw(value: string): void {
    this.inline += value;
  }

  pre(value: string): void {
    this.flush();
    const text = value.replace(/\r\n?/g, '\n').replace(/^\n+|\s+$/g, '');
    if (text.trim()) this.blocks.push({ kind: 'pre', text });
  }
}

interface Context {
  listDepth: number;
  /** Inside a table cell, blocks run together so a row stays on one line. */
  inCell: boolean;
}

function walk(node: DomNode, out: BlockWriter, context: Context): void {
  if (node.nodeType === TEXT_NODE) {
    out.text(node.nodeValue ?? '');
    return;
  }
  if (node.nodeType !== ELEMENT_NODE) {
    if (node.nodeType === 9 || node.nodeType === 11) walkChildren(node, out, context);
    return;
  }
  const name = node.nodeName.toUpperCase();
  if (SKIPPED.has(name)) return;
  if (context.inCell) {
    out.text(' ');
    walkChildren(node, out, context);
    out.text(' ');
    return;
  }

  const level = HEADINGS[name];
  if (level !== undefined) {
    out.flush('heading', `${'#'.repeat(level)} `);
    walkChildren(node, out, context);
    out.flush();
    return;
  }
  switch (name) {
    case 'BR':
      out.raw('\n');
      return;
    case 'PRE':
      out.pre(textOf(node));
      return;
    case 'IMG': {
      const alt = node.getAttribute?.('alt')?.trim();
      if (alt) out.text(` ${alt} `);
      return;
    }
    case 'LI':
      out.flush('item', `${'  '.repeat(Math.max(0, context.listDepth - 1))}- `);
      walkChildren(node, out, context);
      out.flush();
      return;
    case 'UL':
    case 'OL':
      out.flush();
      walkChildren(node, out, { ...context, listDepth: context.listDepth + 1 });
      out.flush();
      return;
    case 'TR':
      out.flush('row');
      walkChildren(node, out, context);
      out.flush();
      return;
    case 'TD':
    case 'TH':
      out.raw(' | ');
      walkChildren(node, out, { ...context, inCell: true });
      return;
    case 'DL':
      writeDefinitionList(node, out, context);
      return;
    case 'TABLE':
      if (writeTable(node, out, context)) return;
      break;
  }
  if (name === 'SUMMARY' || (BLOCKS.has(name) && isBoldOnly(node))) {
    writeBoldLine(textOf(node), out);
    return;
  }
  if (BLOCKS.has(name)) {
    out.flush();
    walkChildren(node, out, context);
    out.flush();
    return;
  }
  walkChildren(node, out, context);
}

/**
 * A line in bold on its own: how an FAQ page's question or a collapsed section's title reads
 * ("**Can I return an item?**"), the same as in a Markdown source.
 */
function writeBoldLine(text: string, out: BlockWriter): void {
  const line = text.replace(/\s+/g, ' ').trim();
  out.flush();
  if (line) out.text(`**${line}**`);
  out.flush();
}

/** A cell's text on one line, with its pipes made slashes so that they do not split the row. */
function cellText(cell: DomNode, context: Context): string {
  const writer = new BlockWriter();
  walkChildren(cell, writer, { ...context, inCell: true });
  writer.flush();
  return writer.blocks.map((b) => b.text).join(' ').replace(/\|/g, '/').trim();
}

/**
 * A data table as a Markdown table (a header row, its separator, then the rows), which is how the
 * answer engine reads each row with its column names ("Full Groom — Large: $98"). A table without
 * a header row gets an empty one, so its first row is read as data. A cell spanning several
 * columns is repeated in each; a row of one cell spanning them all (a group's title) stays one
 * cell. The caption goes above the table, or names the first column of a table without a header
 * row ("Store hours: Saturday — 9:00 am – 6:00 pm"). A layout table (one column) is read as
 * ordinary blocks: returns false.
 */
function writeTable(table: DomNode, out: BlockWriter, context: Context): boolean {
  const rows: { cells: { text: string; span: number }[]; header: boolean }[] = [];
  let caption = '';
  const visit = (node: DomNode, inHead: boolean) => {
    for (const child of Array.from(node.childNodes)) {
      if (child.nodeType !== ELEMENT_NODE) continue;
      const name = child.nodeName.toUpperCase();
      if (name === 'CAPTION') caption = cellText(child, context);
      else if (name === 'THEAD' || name === 'TBODY' || name === 'TFOOT') visit(child, name === 'THEAD');
      else if (name === 'TR') {
        const cells = Array.from(child.childNodes).filter((c) => c.nodeType === ELEMENT_NODE && (c.nodeName.toUpperCase() === 'TD' || c.nodeName.toUpperCase() === 'TH'));
        if (cells.length === 0) continue;
        rows.push({
          cells: cells.map((cell) => ({ text: cellText(cell, context), span: Math.min(20, Math.max(1, Number(cell.getAttribute?.('colspan')) || 1)) })),
          header: inHead || cells.every((cell) => cell.nodeName.toUpperCase() === 'TH'),
        });
      }
    }
  };
  visit(table, false);
  const width = Math.max(0, ...rows.map((row) => row.cells.reduce((n, cell) => n + cell.span, 0)));
  if (width < 2 || rows.length === 0) return false;
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`.replace(/ {2,}/g, ' ');
  // The caption titles the table: above a header row, or as the name of the first column when it has none.
  const [first, ...rest] = rows[0]!.header ? rows : [{ cells: Array.from({ length: width }, (_, i) => ({ text: i === 0 ? caption : '', span: 1 })), header: true }, ...rows];
  if (caption && rows[0]!.header) writeBoldLine(caption, out);
  out.flush();
  const lines = [line(first!.cells.flatMap((cell) => Array.from({ length: cell.span }, () => cell.text))), line(Array.from({ length: width }, () => '---'))];
  for (const row of rest) {
    const whole = row.cells.length === 1 && row.cells[0]!.span >= width;
    lines.push(line(whole ? [row.cells[0]!.text] : row.cells.flatMap((cell) => Array.from({ length: cell.span }, () => cell.text))));
  }
  out.pre(lines.join('\n'));
  return true;
}

// A term whose definitions run longer than this is a title over paragraphs, not a "term: value" pair.
const SHORT_DEFINITION = 120;

/**
 * A definition list: short pairs ("Monday" / "9 am – 6 pm") become one item line each, "Monday:
 * 9 am – 6 pm"; a question or a term over long definitions becomes a bold line above them.
 */
function writeDefinitionList(list: DomNode, out: BlockWriter, context: Context): void {
  const entries: { term: DomNode | null; definitions: DomNode[] }[] = [];
  const visit = (node: DomNode) => {
    for (const child of Array.from(node.childNodes)) {
      const name = child.nodeType === ELEMENT_NODE ? child.nodeName.toUpperCase() : '';
      if (name === 'DT') entries.push({ term: child, definitions: [] });
      else if (name === 'DD') {
        if (entries.length === 0) entries.push({ term: null, definitions: [] });
        entries.at(-1)!.definitions.push(child);
      } else if (name === 'DIV') visit(child); // HTML allows each pair wrapped in a <div>
    }
  };
  visit(list);
  out.flush();
  for (const { term, definitions } of entries) {
    const termText = term ? textOf(term).replace(/\s+/g, ' ').trim() : '';
    const definitionTexts = definitions.map((d) => textOf(d).replace(/\s+/g, ' ').trim()).filter(Boolean);
    const pair = termText && !/\?$/.test(termText) && definitionTexts.length > 0 && definitionTexts.every((d) => d.length <= SHORT_DEFINITION) && !definitions.some(hasBlockChild);
    if (pair) {
      out.flush('item', `${'  '.repeat(context.listDepth)}- `);
      out.text(`${termText}: ${definitionTexts.join('; ')}`);
      out.flush();
      continue;
    }
    if (termText) writeBoldLine(termText, out);
    for (const definition of definitions) {
      out.flush();
      walkChildren(definition, out, context);
      out.flush();
    }
  }
}

function hasBlockChild(node: DomNode): boolean {
  return Array.from(node.childNodes).some((child) => child.nodeType === ELEMENT_NODE && (BLOCKS.has(child.nodeName.toUpperCase()) || child.nodeName.toUpperCase() === 'LI'));
}

/** True when every word of a block sits inside <strong> or <b>, and it holds no other block. */
function isBoldOnly(node: DomNode): boolean {
  let bold = false;
  const check = (current: DomNode, inBold: boolean): boolean => {
    for (const child of Array.from(current.childNodes)) {
      if (child.nodeType === TEXT_NODE) {
        if (!(child.nodeValue ?? '').trim()) continue;
        if (!inBold) return false;
        bold = true;
      } else if (child.nodeType === ELEMENT_NODE) {
        const name = child.nodeName.toUpperCase();
        if (BLOCKS.has(name) || name === 'LI' || name === 'BR' || HEADINGS[name] !== undefined || SKIPPED.has(name)) return false;
        if (!check(child, inBold || name === 'STRONG' || name === 'B')) return false;
      }
    }
    return true;
  };
  return check(node, false) && bold;
}

function walkChildren(node: DomNode, out: BlockWriter, context: Context): void {
  for (const child of Array.from(node.childNodes)) walk(child, out, context);
}

function textOf(node: DomNode): string {
  if (node.nodeType === TEXT_NODE) return node.nodeValue ?? '';
  if (node.nodeType === ELEMENT_NODE && node.nodeName.toUpperCase() === 'BR') return '\n';
  return Array.from(node.childNodes, textOf).join('');
}

/** The readable text of a subtree: `# ` headings, blank lines between blocks, one line per list item or table row. */
export function htmlToText(root: DomNode): string {
  const out = new BlockWriter();
  walk(root, out, { listDepth: 0, inCell: false });
  out.flush();
  let text = '';
  let previous: BlockKind | undefined;
  for (const block of out.blocks) {
    const body = block.kind === 'row' ? block.text.replace(/^\|\s*/, '').replace(/\s*\|\s*$/, '') : block.text;
    const tight = previous === block.kind && (block.kind === 'item' || block.kind === 'row');
    text += (text ? (tight ? '\n' : '\n\n') : '') + body;
    previous = block.kind;
  }
  return text;
}
