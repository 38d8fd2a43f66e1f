/**
 * The main text of an HTML page: page chrome (navigation, site header and footer, sidebars,
 * cookie banners, scripts, styles) removed, then Mozilla Readability picks the article. When
 * Readability keeps much less than the cleaned page holds (pages of several short sections, such
 * as help-center FAQs), the cleaned page is used instead.
 */
import { parseHTML } from 'linkedom';
import { Readability } from '@mozilla/readability';
import { htmlToText, type DomNode } from './html-to-text.ts';
import { structuredFaq, withFaqEntries } from './structured-faq.ts';

/** Element selectors removed before anything reads the page. */
const CHROME_SELECTORS = 'script, style, noscript, template, nav, aside, footer, form, iframe, svg, dialog, button';
/** ids and classes of consent banners, skip links and similar overlays. */
const OVERLAY_PATTERN = /cookie|consent|gdpr|onetrust|cookiebot|skip-link|skip-to|newsletter-signup|popup|modal/i;
/**
 * Class or id parts of an article's trimmings: its byline and date, breadcrumbs, share and vote
 * buttons, "was this helpful?" and related articles. A visitor's question is never answered by
 * them, and a related article's title would draw searches to the wrong page.
 */
const TRIMMINGS_PATTERN = /(?:^|[\s_-])(?:byline|author|meta|breadcrumbs?|share|sharing|social|feedback|helpful|votes?|rating|related|reading-time|read-time)(?=$|[\s_-])/i;
/** Trimmings hold a line or two; an element longer than this is content whatever its class says. */
const MAX_TRIMMINGS_TEXT = 300;
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
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  replaceWith(...nodes: (DomElement | string)[]): void;
  prepend(...nodes: (DomElement | string)[]): void;
}

interface DomDocument extends DomElement {
  createElement(name: string): DomElement;
}

/** A page's title and main text. */
export interface ExtractedHtml {
  title: string;
  text: string;
}

/** Extracts the title and main text of an HTML document. */
export function extractHtml(html: string, url?: string): ExtractedHtml {
  const { document } = parseHTML(withSkeleton(html));
  const doc = document as unknown as Document & DomDocument;
  const pageTitle = oneLine(doc.querySelector('title')?.textContent ?? '');
  const firstHeading = oneLine(doc.querySelector('h1')?.textContent ?? '');

  // Read before the scripts go with the rest of the page's chrome.
  const faq = structuredFaq(Array.from(doc.querySelectorAll('script[type="application/ld+json"]'), (script) => script.textContent ?? ''));
  revealCollapsedContent(doc);
  unwrapDefinitionGroups(doc);
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
  const text = withFaqEntries(articleText.length >= MIN_ARTICLE_SHARE * cleaned.length ? articleText : cleaned, faq);
  const title = oneLine(article?.title ?? '') || pageTitle || firstHeading;
  return { title, text };
}

/** What ids and classes of a collapsed panel that belongs to the content are called ("accordion-panel", "faq-answer"). */
const DISCLOSURE_PATTERN = /accordion|collaps|faq|answer|panel|expand|disclosure|toggle|tab-?content|tab-?pane/i;
/** A control that opens a panel: an accordion trigger or a Bootstrap collapse toggle. */
const DISCLOSURE_CONTROL = '[aria-controls], [aria-expanded], [data-toggle], [data-bs-toggle], [data-target], [data-bs-target]';

/**
 * FAQ pages ship their answers collapsed: accordion panels `hidden` or `aria-hidden` until a
 * button opens them, Bootstrap collapses, `<details>`, tab panels other than the first. A reader
 * sees them with a click, so they are content: their hiding attributes are dropped before anything
 * removes hidden elements. The buttons that open them name the question; they become a bold line
 * (or plain text inside a heading) instead of being dropped with the page's other buttons. A tab's
 * name goes to the top of its panel.
 */
function revealCollapsedContent(doc: DomDocument): void {
  const controls = Array.from(doc.querySelectorAll(DISCLOSURE_CONTROL));
  const panels = new Map<DomElement, DomElement>();
  for (const control of controls) {
    const panel = panelOf(control, doc);
    if (panel) panels.set(control, panel);
  }
  const controlled = new Set(panels.values());
  for (const element of Array.from(doc.querySelectorAll('[hidden], [aria-hidden], [style]'))) {
    if (!isHidden(element) || !holdsContent(element)) continue;
    const label = `${element.getAttribute?.('id') ?? ''} ${element.getAttribute?.('class') ?? ''}`;
    if (OVERLAY_PATTERN.test(label)) continue;
    const role = element.getAttribute?.('role') ?? '';
    const isPanel = controlled.has(element) || element.getAttribute?.('hidden') === 'until-found' || role === 'tabpanel' || role === 'region' || DISCLOSURE_PATTERN.test(label);
    if (!isPanel) continue;
    element.removeAttribute('hidden');
    element.removeAttribute('aria-hidden');
    const style = element.getAttribute?.('style');
    if (style) element.setAttribute('style', style.replace(/(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*;?/gi, ''));
  }
  for (const [control, panel] of panels) {
    const text = oneLine(control.textContent ?? '');
    // A control that opens a menu or a list of links is chrome, removed with the rest.
    if (!text || !holdsContent(panel) || isHidden(panel)) continue;
    if (control.getAttribute?.('role') === 'tab') {
      // The tab's name titles its panel; the tab list itself is chrome.
      if (!oneLine(panel.textContent ?? '').startsWith(text)) panel.prepend(boldLine(doc, text));
      control.remove();
    } else if (control.closest('h1, h2, h3, h4, h5, h6, summary, dt')) {
      control.replaceWith(text);
    } else if (control.nodeName.toUpperCase() === 'BUTTON' || control.nodeName.toUpperCase() === 'A' || control.getAttribute?.('role') === 'button') {
      control.replaceWith(boldLine(doc, text));
    }
  }
}

/**
 * The panel a control opens: the element its `aria-controls`, `data-target` or `#` link names, else
 * the element after it (or after the heading it sits in, as in `<h3><button>…</button></h3><div>`).
 */
function panelOf(control: DomElement, doc: DomDocument): DomElement | null {
  const ids = (control.getAttribute?.('aria-controls') ?? '').split(/\s+/);
  for (const target of [control.getAttribute?.('data-target'), control.getAttribute?.('data-bs-target'), control.getAttribute?.('href')]) {
    if (target?.startsWith('#')) ids.push(target.slice(1));
  }
  for (const id of ids) {
    const panel = id ? doc.querySelector(`[id="${id.replace(/["\\]/g, '\\$&')}"]`) : null;
    if (panel) return panel;
  }
  if (control.getAttribute?.('aria-expanded') == null) return null;
  const holder = control.closest('h1, h2, h3, h4, h5, h6') ?? control;
  return (holder as unknown as { nextElementSibling: DomElement | null }).nextElementSibling;
}

// A panel shorter than this, or mostly links (a menu), is not an answer worth keeping.
const MIN_PANEL_TEXT = 20;
const MAX_PANEL_LINK_SHARE = 0.5;

function holdsContent(element: DomElement): boolean {
  const length = oneLine(element.textContent ?? '').length;
  if (length < MIN_PANEL_TEXT) return false;
  let linked = 0;
  for (const link of Array.from(element.querySelectorAll('a'))) linked += oneLine(link.textContent ?? '').length;
  return linked / length < MAX_PANEL_LINK_SHARE;
}

/**
 * HTML lets each term and definition of a `<dl>` be wrapped in a `<div>`; Readability drops such
 * small divs as clutter, so their terms and definitions are moved up into the list.
 */
function unwrapDefinitionGroups(doc: DomDocument): void {
  for (const group of Array.from(doc.querySelectorAll('dl > div'))) group.replaceWith(...(Array.from(group.childNodes) as DomElement[]));
}

/** `<p><strong>text</strong></p>`: the way the page's text says "this line titles what follows". */
function boldLine(doc: DomDocument, text: string): DomElement {
  const paragraph = doc.createElement('p');
  const strong = doc.createElement('strong');
  strong.textContent = text;
  paragraph.prepend(strong);
  return paragraph;
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
    const length = element.textContent?.length ?? 0;
    if (TRIMMINGS_PATTERN.test(label) && length <= MAX_TRIMMINGS_TEXT) {
      element.remove();
      continue;
    }
    if (!isHiddenOrChrome(element) && !OVERLAY_PATTERN.test(label)) continue;
    if (length < 400 || length <= pageLength / 2) element.remove();
  }
}

/** True when an element (by its attributes) is hidden or marked as page chrome. */
function isHiddenOrChrome(node: DomNode): boolean {
  const role = node.getAttribute?.('role');
  return isHidden(node) || Boolean(role && CHROME_ROLES.has(role.toLowerCase()));
}

/** True when an element's attributes hide it. */
function isHidden(node: DomNode): boolean {
  const attr = (name: string) => node.getAttribute?.(name) ?? null;
  if (attr('hidden') !== null || attr('aria-hidden') === 'true') return true;
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
