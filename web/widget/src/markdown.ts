/**
 * A small Markdown renderer for answers and operator messages that builds DOM nodes: paragraphs,
 * line breaks, **bold**, *italic*, `code`, fenced code, lists, headings (as bold lines) and links.
 * Text only ever becomes text nodes (never HTML), and only http(s) URLs become links, so an answer
 * quoting `<script>` or `javascript:` from the knowledge shows it as the text it is.
 */

const FENCE = /^\s*```/;
const BULLET = /^\s*[-*+]\s+(.*)$/;
const NUMBERED = /^\s*(\d{1,9})[.)]\s+(.*)$/;
const HEADING = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/;

// Inline spans, leftmost first: code, [label](url) (one level of parentheses in the URL, as in
// Wikipedia's), **bold**, *italic*, a bare http(s) URL.
const INLINE = /(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)|\[([^\]\n]+)\]\(\s*<?((?:[^()\s<>]|\([^()\s<>]*\))+)>?\s*\)|\*\*(?=\S)([\s\S]*?\S)\*\*|\*(?=[^\s*])([^*\n]*?[^\s*])\*(?!\*)|\bhttps?:\/\/[^\s<>"'`]+/gi;
const TRAILING_PUNCTUATION = /[.,;:!?)\]'"]+$/;

/** The URL as an absolute http(s) URL, or null for any other scheme or a relative one. */
export function safeHttpUrl(text: string): string | null {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** A link that opens in a new tab and tells the target nothing about the page. */
export function externalLink(doc: Document, href: string, label: Node | string): HTMLAnchorElement {
  const a = doc.createElement('a');
  a.href = href;
  a.target = '_blank';
  a.rel = 'noopener noreferrer';
  a.append(label);
  return a;
}

function appendInline(doc: Document, parent: Node, text: string): void {
  let last = 0;
  // A RegExp per call: the recursion into bold, italic and labels must not share its lastIndex.
  const pattern = new RegExp(INLINE.source, INLINE.flags);
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    if (match.index > last) parent.appendChild(doc.createTextNode(text.slice(last, match.index)));
    last = match.index + match[0].length;
    const [whole, , code, label, href, bold, italic] = match;
    if (code !== undefined) {
      const el = doc.createElement('code');
      el.textContent = code;
      parent.appendChild(el);
    } else if (label !== undefined) {
      const url = safeHttpUrl(href ?? '');
      const holder = url ? externalLink(doc, url, '') : doc.createElement('span');
      appendInline(doc, holder, label);
      parent.appendChild(holder);
    } else if (bold !== undefined || italic !== undefined) {
      const el = doc.createElement(bold !== undefined ? 'strong' : 'em');
      appendInline(doc, el, (bold ?? italic)!);
      parent.appendChild(el);
    } else {
      // A bare URL: sentence punctuation after it is not part of it.
      const trailing = TRAILING_PUNCTUATION.exec(whole)?.[0] ?? '';
      const bare = whole.slice(0, whole.length - trailing.length);
      const url = safeHttpUrl(bare);
      parent.appendChild(url ? externalLink(doc, url, bare) : doc.createTextNode(bare));
      if (trailing) parent.appendChild(doc.createTextNode(trailing));
    }
  }
  if (last < text.length) parent.appendChild(doc.createTextNode(text.slice(last)));
}

/** Lines joined with <br>, each with its inline spans. */
function appendLines(doc: Document, parent: Node, lines: string[]): void {
  lines.forEach((line, i) => {
    if (i > 0) parent.appendChild(doc.createElement('br'));
    appendInline(doc, parent, line);
  });
}

const isBlank = (line: string) => line.trim() === '';
const startsBlock = (line: string) => FENCE.test(line) || BULLET.test(line) || NUMBERED.test(line) || HEADING.test(line);

/** The text as DOM nodes, ready to append to a message bubble. */
export function renderMarkdown(text: string, doc: Document = document): DocumentFragment {
  const out = doc.createDocumentFragment();
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (isBlank(line)) {
      i++;
    } else if (FENCE.test(line)) {
      const body: string[] = [];
      for (i++; i < lines.length && !FENCE.test(lines[i]!); i++) body.push(lines[i]!);
      i++;
      const pre = doc.createElement('pre');
      const code = doc.createElement('code');
      code.textContent = body.join('\n');
      pre.appendChild(code);
      out.appendChild(pre);
    } else if (BULLET.test(line) || NUMBERED.test(line)) {
      const ordered = NUMBERED.exec(line);
      const list = doc.createElement(ordered ? 'ol' : 'ul');
      if (ordered && ordered[1] !== '1') (list as HTMLOListElement).start = Number(ordered[1]);
      const item = ordered ? NUMBERED : BULLET;
      for (; i < lines.length && item.test(lines[i]!); i++) {
        const li = doc.createElement('li');
        const parts = item.exec(lines[i]!)!;
        appendInline(doc, li, parts[parts.length - 1]!);
        list.appendChild(li);
      }
      out.appendChild(list);
    } else if (HEADING.test(line)) {
      const p = doc.createElement('p');
      const strong = doc.createElement('strong');
      appendInline(doc, strong, HEADING.exec(line)![1]!);
      p.appendChild(strong);
      out.appendChild(p);
      i++;
    } else {
      const paragraph: string[] = [];
      for (; i < lines.length && !isBlank(lines[i]!) && (paragraph.length === 0 || !startsBlock(lines[i]!)); i++) paragraph.push(lines[i]!);
      const p = doc.createElement('p');
      appendLines(doc, p, paragraph);
      out.appendChild(p);
    }
  }
  return out;
}

/** The text as one line of plain words, its Markdown read (a message's preview in a list). */
export function markdownAsLine(text: string, doc: Document = document): string {
  const fragment = renderMarkdown(text, doc);
  for (const br of fragment.querySelectorAll('br')) br.replaceWith(' ');
  return [...fragment.querySelectorAll('p, li, pre')]
    .map((block) => block.textContent ?? '')
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}
