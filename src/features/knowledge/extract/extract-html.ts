/**
 * The main text of an HTML page: page chrome (navigation, site header and footer, sidebars,
 * cookie banners, scripts, styles) removed, then Mozilla Readability picks the article. When
 * Readability keeps much less than the cleaned page holds (pages of several short sections, such
 * as help-center FAQs), the cleaned page is used instead.
 */
import { parseHTML } from 'linkedom';
import { Readability } from '@mozilla/readability';
import { htmlToText, type DomNode } from './html-to-text.ts';

/** Element selectors removed before anything reads the page. */
const CHROME_SELECTORS = 'script, style, noscript, template, nav, aside, footer, form, iframe, svg, dialog, button';
/** ids and classes of consent banners, skip links and similar overlays. */
const OVERLAY_PATTERN = /cookie|consent|gdpr|onetrust|cookiebot|skip-link|skip-to|newsletter-signup|popup|modal/i;
/** Roles that mark page chrome rather than content. */
const CHROME_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'search', 'dialog', 'alertdialog', 'menu', 'menubar', 'toolbar']);

/** Readability's article must hold at least this share of the cleaned page's text to be preferred. */
const MIN_ARTICLE_SHARE = 0.4;
/** Readability takes seconds on pages far past this many elements; those use the cleaned page. */
const MAX_READABILITY_ELEMENTS = 15_000;

interface DomElement extends DomNode {
  remove(): void;
  closest(selector: string): DomElement | null;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
  querySelector(selector: string): DomElement | null;
  textContent: string | null;
}

/** A page's title and main text. */
export interface ExtractedHtml {
  title: string;
  text: string;
}

/** Extracts the title and main text of an HTML document. */
export function extractHtml(html: string, url?: string): ExtractedHtml {
  const { document } = parseHTML(withSkeleton(html));
  const doc = document as unknown as Document & DomElement;
  const pageTitle = oneLine(doc.querySelector('title')?.textContent ?? '');
  const firstHeading = oneLine(doc.querySelector('h1')?.textContent ?? '');

  removeChrome(doc);
  const root = (doc.querySelector('body') ?? doc.documentElement) as DomElement | null;
  const cleaned = root ? htmlToText(root) : '';

  let article: ReturnType<Readability<DomNode>['parse']> = null;
  // Readability's own element limit counts getElementsByTagName('*'), which linkedom leaves empty.
  if (doc.querySelectorAll('*').length <= MAX_READABILITY_ELEMENTS) {
    try {
      if (url) setDocumentUrl(doc, url);
      article = new Readability<DomNode>(doc, { serializer: (node) => node as unknown as DomNode, charThreshold: 200 }).parse();
    } catch {
      // Readability gives up on some malformed documents; the cleaned page is still good text.
    }
  }
  const articleText = article?.content ? htmlToText(article.content) : '';
  const text = articleText.length >= MIN_ARTICLE_SHARE * cleaned.length ? articleText : cleaned;
  const title = oneLine(article?.title ?? '') || pageTitle || firstHeading;
  return { title, text };
}

/** Removes navigation, site headers and footers, sidebars, overlays and hidden elements. */
function removeChrome(doc: DomElement): void {
  for (const element of Array.from(doc.querySelectorAll(CHROME_SELECTORS))) element.remove();
  // A <header> inside the article or main content holds its title and is kept; the site's is not.
  for (const header of Array.from(doc.querySelectorAll('header'))) {
    if (!header.closest('article, main, [role="main"]')) header.remove();
  }
  // Attribute heuristics misfire on wrappers ("page consent-given", a shell hidden until scripts
  // run), so they only remove elements that hold a minor part of the page.
  const pageLength = doc.querySelector('body')?.textContent?.length ?? 0;
  for (const element of Array.from(doc.querySelectorAll('[id], [class], [role], [hidden], [aria-hidden], [style]'))) {
    if (!element.parentNode) continue;
    const name = element.nodeName.toUpperCase();
    if (name === 'BODY' || name === 'HTML' || name === 'MAIN' || name === 'ARTICLE') continue;
    const label = `${element.getAttribute?.('id') ?? ''} ${element.getAttribute?.('class') ?? ''}`;
    if (!isHiddenOrChrome(element) && !OVERLAY_PATTERN.test(label)) continue;
    const length = element.textContent?.length ?? 0;
    if (length < 400 || length <= pageLength / 2) element.remove();
  }
}

/** True when an element (by its attributes) is hidden or marked as page chrome. */
function isHiddenOrChrome(node: DomNode): boolean {
  const attr = (name: string) => node.getAttribute?.(name) ?? null;
  if (attr('hidden') !== null || attr('aria-hidden') === 'true') return true;
  const role = attr('role');
  if (role && CHROME_ROLES.has(role.toLowerCase())) return true;
  const style = attr('style');
  return style !== null && /display\s*:\s*none|visibility\s*:\s*hidden/i.test(style);
}

/** Lets Readability resolve relative links against the page's address (linkedom has no URL of its own). */
function setDocumentUrl(doc: DomElement, url: string): void {
  try {
    Object.defineProperty(doc, 'documentURI', { value: url, configurable: true });
    Object.defineProperty(doc, 'baseURI', { value: url, configurable: true });
  } catch {
    // Read-only in some DOMs; Readability then leaves relative links as they are.
  }
}

/**
 * linkedom builds the tree the markup spells out and, unlike a browser, invents no <html> or
 * <body>; a fragment or a page that leaves them out is put inside a complete skeleton.
 */
function withSkeleton(html: string): string {
  if (/<html[\s>]/i.test(html) && /<body[\s>]/i.test(html)) return html;
  const inner = html.replace(/<!doctype[^>]*>|<\/?(?:html|head|body)(?:\s[^>]*)?>/gi, '');
  return `<!doctype html><html><head></head><body>${inner}</body></html>`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
