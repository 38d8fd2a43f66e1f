import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UnprocessableError } from '../../../platform/errors.ts';
import { extractText, UnsupportedContentError } from './extract-text.ts';

const fixtures = join(fileURLToPath(new URL('.', import.meta.url)), 'fixtures');
const fixture = (name: string) => readFileSync(join(fixtures, name));

/** A real 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** The first kilobytes of the running node binary: a real ELF executable header. */
function elfBytes(): Buffer {
  const fd = openSync(process.execPath, 'r');
  try {
    const buffer = Buffer.alloc(4096);
    readSync(fd, buffer, 0, buffer.length, 0);
    return buffer;
  } finally {
    closeSync(fd);
  }
}

function assertAbsent(text: string, needles: string[]): void {
  for (const needle of needles) assert.ok(!text.includes(needle), `text should not contain ${JSON.stringify(needle)}:\n${text}`);
}

function assertPresent(text: string, needles: string[]): void {
  for (const needle of needles) assert.ok(text.includes(needle), `text should contain ${JSON.stringify(needle)}:\n${text}`);
}

describe('extractText: HTML pages', () => {
  it('keeps a help-center article and drops navigation, banners, scripts, styles and footers', async () => {
    const result = await extractText({ body: fixture('help-center-article.html'), contentType: 'text/html; charset=utf-8', url: 'https://help.northwind.example/a/reset-password' });
    assert.equal(result.format, 'html');
    assert.equal(result.title, 'How do I reset my password?');
    assertPresent(result.text, [
      'If you have forgotten your Northwind password',
      '## Reset your password from the sign-in page',
      '- Enter the email address you use for Northwind and click Send reset link.',
      '## I did not receive the reset email',
      '### Accounts managed by your company',
      'Enterprise with SSO | Your IT administrator',
    ]);
    assertAbsent(result.text, [
      'STYLE_MARKER', 'SCRIPT_MARKER', 'FOOTER_MARKER', 'dataLayer', 'We use cookies', 'Accept all', 'Skip to main content',
      'Pricing', 'Sign in', 'Search the help center', 'Articles in this section', 'Was this article helpful', 'Privacy policy',
    ]);
  });

  it('separates paragraphs with blank lines and puts headings on their own lines', async () => {
    const { text } = await extractText({ body: fixture('help-center-article.html'), contentType: 'text/html' });
    assert.match(text, /your current password\.\n\n## Reset your password from the sign-in page\n\n- Open the sign-in page/);
    assert.match(text, /- Open the sign-in page[^\n]*\n- Enter the email/);
    assert.doesNotMatch(text, /\n{3,}/);
  });

  it('keeps a blog post and drops the sidebar, newsletter box, share buttons and consent notice', async () => {
    const result = await extractText({ body: fixture('blog-post.html'), contentType: 'text/html' });
    assert.equal(result.title, "Five ways to cut your team's meeting time in half");
    assertPresent(result.text, [
      'Most teams spend more than a third of their week in meetings',
      '## 2. Default to 25 minutes instead of 30',
      'got back 90 minutes per person per week',
      '## 5. End with owners and deadlines',
    ]);
    assertAbsent(result.text, ['TRACKING_KEY', '--accent', 'Start free trial', 'Get our newsletter', 'Popular posts', 'Share this post', 'This site uses cookies', 'Market Street']);
  });

  it('decodes a Windows-1252 page from its meta charset and keeps every FAQ section', async () => {
    const result = await extractText({ body: fixture('faq-windows-1252.html'), contentType: 'text/html' });
    assert.equal(result.title, 'Frequently asked questions - Café Lumière Online Shop');
    assertPresent(result.text, [
      '## How much does shipping cost?',
      'Shipping within France costs 4,90 € per order. Orders over 45 € ship free.',
      'We roast every Tuesday and Friday',
      '## How do I pay?',
      'We accept Visa, Mastercard and bank transfer.',
    ]);
    assertAbsent(result.text, ['CART_SCRIPT_MARKER', 'Basket (0)', 'poursuivant votre navigation']);
  });

  it('keeps the answers an FAQ page ships collapsed, each under its question, and still drops hidden chrome', async () => {
    const { text } = await extractText({ body: fixture('faq-accordion.html'), contentType: 'text/html' });
    // Accordion panels hidden by `hidden`, `aria-hidden` or `display: none`, each after the button or heading that opens it.
    assert.match(text, /### How long does delivery take\?\n\nOrders placed before 1 pm ship the same day\./);
    assert.match(text, /\*\*Can I change my order after placing it\?\*\*\n\nYes, until it is packed/);
    assert.match(text, /### Do you deliver to the islands\?\n\nWe deliver to the islands for a flat fee of £9\.50\./);
    assert.match(text, /\*\*Do you run baking classes\?\*\*\n\nYes, sourdough basics on the first Sunday/);
    // <details>, a Bootstrap collapse, a <dt> question and a paragraph all in bold read as an FAQ's question line.
    assert.match(text, /\*\*Are your flours organic\?\*\*\n\nAll our stoneground flours/);
    assert.match(text, /\*\*How should I store sourdough starter\?\*\*\n\nKeep it in the fridge/);
    assert.match(text, /\*\*Do you sell gift cards\?\*\*\n\nYes, from £10 to £100/);
    assert.match(text, /\*\*Can I collect my order\?\*\*\n\nYes, from the mill shop/);
    // Tab panels, the hidden one too, under their tab's name; short definition pairs on one line each.
    assert.match(text, /\*\*Mill shop\*\*\n\n- Monday to Friday: 8 am – 5 pm\n- Saturday: 9 am – 1 pm/);
    assert.match(text, /\*\*Café\*\*\n\n- Every day: 7 am – 3 pm/);
    // Bold inside a sentence stays plain text.
    assertPresent(text, ['We love hearing from bakers.']);
    assertAbsent(text, ['Menu', 'Shop all flours', 'We use cookies', 'Join our list', 'PROMO_MARKER', 'FOOTER_MARKER', 'SCRIPT_MARKER', 'Skip to content', 'Accept', 'My account', 'Order history']);
    // An article's trimmings: breadcrumbs, byline and date, votes, related articles.
    assertAbsent(text, ['Help Centre', 'Tandem Support', 'Updated 2 May', 'Was this article helpful', 'Related articles', 'rye flour in bulk']);
  });

  it('adds the FAQ entries a page declares as JSON-LD when its visible text lacks them', async () => {
    const jsonLd = {
      '@context': 'https://schema.org',
      '@graph': [
        { '@type': 'Organization', name: 'Tandem' },
        {
          '@type': 'FAQPage',
          mainEntity: [
            { '@type': 'Question', name: 'Do you ship abroad?', acceptedAnswer: { '@type': 'Answer', text: '<p>Yes, to <b>12 countries</b> in Europe.</p>' } },
            { '@type': 'Question', name: 'Where is the mill?', acceptedAnswer: { '@type': 'Answer', text: 'On Weir Lane, Tolworth, next to the river.' } },
          ],
        },
      ],
    };
    const html = `<html><head><title>FAQ</title><script type="application/ld+json">${JSON.stringify(jsonLd)}</script><script type="application/ld+json">{not json</script></head>
      <body><main><h1>FAQ</h1><div id="faq-app"></div><h2>Where is the mill?</h2><p>On Weir Lane, Tolworth, next to the river.</p></main></body></html>`;
    const { text } = await extractText({ body: Buffer.from(html), contentType: 'text/html' });
    assert.match(text, /\*\*Do you ship abroad\?\*\*\n\nYes, to 12 countries in Europe\./);
    assert.equal(text.split('On Weir Lane').length, 2, `the visible answer is not added twice:\n${text}`);
  });

  it('writes a data table as a Markdown table, under its caption or with the caption as the header row it lacks', async () => {
    const html = `<html><head><title>Prices</title></head><body><main><h1>Prices</h1>
      <table><thead><tr><th>Service</th><th>Small<br><span>up to 25 lb</span></th><th>Large</th></tr></thead>
      <tbody><tr><th scope="row">Full groom</th><td>$65</td><td>$98</td></tr>
      <tr><th colspan="3">Add-ons</th></tr>
      <tr><td>Nail trim | grind</td><td colspan="2">$15</td></tr></tbody></table>
      <table><caption>Store hours</caption><tr><td>Monday – Friday</td><td>9:00 am – 8:00 pm</td></tr><tr><td>Sunday</td><td>Closed</td></tr></table>
      <table><caption>Shipping rates</caption><thead><tr><th>Method</th><th>Cost</th></tr></thead><tr><td>Standard</td><td>$6.95</td></tr></table>
      <table><tr><td><p>A layout table of one column.</p></td></tr></table></main></body></html>`;
    const { text } = await extractText({ body: Buffer.from(html), contentType: 'text/html' });
    assertPresent(text, [
      '| Service | Small up to 25 lb | Large |\n| --- | --- | --- |\n| Full groom | $65 | $98 |\n| Add-ons |\n| Nail trim / grind | $15 | $15 |',
      '| Store hours | |\n| --- | --- |\n| Monday – Friday | 9:00 am – 8:00 pm |\n| Sunday | Closed |',
      '**Shipping rates**\n\n| Method | Cost |\n| --- | --- |\n| Standard | $6.95 |',
      'A layout table of one column.',
    ]);
    assertAbsent(text, ['| A layout table']);
  });

  it('sniffs HTML from the bytes when the type is missing or generic', async () => {
    const result = await extractText({ body: Buffer.from('<!doctype html><title>Hours</title><p>We open at <b>9:00</b>.</p>'), contentType: 'application/octet-stream' });
    assert.equal(result.format, 'html');
    assert.equal(result.title, 'Hours');
    assert.equal(result.text, 'We open at 9:00.');
  });

  it('still removes page chrome from a page too large for Readability', async () => {
    const sections = '<h2>Topic</h2><p>Refunds reach your card within five working days.</p><ul><li>a</li><li>b</li></ul>'.repeat(3200);
    const html = `<html><head><title>Big page</title><style>.x{}</style></head><body><nav>Pricing</nav><main>${sections}</main><footer>FOOTER_MARKER</footer></body></html>`;
    const result = await extractText({ body: Buffer.from(html), contentType: 'text/html' });
    assert.equal(result.title, 'Big page');
    assert.ok(result.text.startsWith('## Topic\n\nRefunds reach your card within five working days.\n\n- a\n- b\n\n## Topic'));
    assertAbsent(result.text, ['Pricing', 'FOOTER_MARKER', '.x{}']);
  });

  it('returns empty text (not an error) for a page without content', async () => {
    const result = await extractText({ body: Buffer.from('<html><head><title>Empty</title><script>x()</script></head><body><nav>Menu</nav></body></html>'), contentType: 'text/html' });
    assert.deepEqual(result, { title: 'Empty', text: '', format: 'html' });
  });
});

describe('extractText: documents', () => {
  it('extracts a PDF page by page, with its title', async () => {
    const result = await extractText({ body: fixture('shipping-guide.pdf'), contentType: 'application/pdf', fileName: 'shipping-guide.pdf' });
    assert.equal(result.format, 'pdf');
    assert.equal(result.title, 'Northwind Shipping and Returns');
    assertPresent(result.text, [
      'Shipping Guide',
      'Orders placed before 2 p.m. on a working day leave our warehouse the same day.',
      'Express delivery costs 9.90 EUR and arrives the next working day.',
      'You may return any unused item within 30 days of delivery for a full refund.',
    ]);
    assert.match(result.text, /same day\.\nStandard delivery/);
    assert.match(result.text, /post office\.$/);
    assert.match(result.text, /next working day\.\n\nReturns\n\nYou may return/);
  });

  it('reads a PDF by its content whatever it is called', async () => {
    const result = await extractText({ body: fixture('shipping-guide.pdf'), contentType: 'text/plain', fileName: 'notes.txt' });
    assert.equal(result.format, 'pdf');
  });

  it('refuses a damaged PDF as unprocessable', async () => {
    const damaged = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(200, 0x41)]);
    await assert.rejects(extractText({ body: damaged, fileName: 'broken.pdf' }), UnprocessableError);
  });

  it('extracts a DOCX with its headings and paragraphs', async () => {
    const result = await extractText({ body: fixture('employee-handbook.docx'), fileName: 'handbook.docx', contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' });
    assert.equal(result.format, 'docx');
    assert.equal(result.title, 'Employee Handbook');
    assertPresent(result.text, [
      '# Working Hours\n\nOur office is open from 8:30 to 17:30, Monday to Friday.',
      '# Holidays\n\nEvery employee receives 27 days of paid holiday per calendar year.',
      '## Requesting leave',
      'Submit leave requests in the HR portal at least two weeks in advance.',
      'Lunch allowance | 8 EUR per day',
    ]);
  });

  it('refuses a DOCX whose parts declare they unpack to hundreds of megabytes', async () => {
    const bomb = Buffer.from(fixture('employee-handbook.docx'));
    // The central directory's entry for the document part: 46 fixed bytes before its name.
    const entry = bomb.lastIndexOf('word/document.xml') - 46;
    assert.equal(bomb.readUInt32LE(entry), 0x02014b50);
    bomb.writeUInt32LE(400 * 1024 * 1024, entry + 24);
    await assert.rejects(extractText({ body: bomb, fileName: 'bomb.docx' }), UnprocessableError);
  });

  it('reads a DOCX sent as a generic binary under another name', async () => {
    const result = await extractText({ body: fixture('employee-handbook.docx'), contentType: 'application/octet-stream', fileName: 'upload.bin' });
    assert.equal(result.format, 'docx');
    assert.equal(result.title, 'Employee Handbook');
  });
});

describe('extractText: text formats', () => {
  it('renders CSV rows as "header: value" lines', async () => {
    const csv = 'sku,name,price,notes\r\nA-100,"Mug, blue",12.50,"Dishwasher ""safe"""\r\nA-200,Teapot,34.00,\r\n';
    const result = await extractText({ body: Buffer.from(csv), contentType: 'text/csv', fileName: 'products.csv' });
    assert.equal(result.format, 'csv');
    assert.equal(result.title, 'products');
    assert.equal(result.text, 'sku: A-100; name: Mug, blue; price: 12.50; notes: Dishwasher "safe"\n\nsku: A-200; name: Teapot; price: 34.00');
  });

  it('detects a semicolon-separated CSV by its extension', async () => {
    const result = await extractText({ body: Buffer.from('\uFEFFName;Price\nWidget;9,90\n'), contentType: 'application/octet-stream', fileName: 'prices.csv' });
    assert.equal(result.format, 'csv');
    assert.equal(result.text, 'Name: Widget; Price: 9,90');
  });

  it('keeps Markdown as written, with normalised line endings and no NULs', async () => {
    const md = '# Install guide\r\n\r\nRun `npm install`.\u0000\r\n\r\n\r\n\r\n## Configure\r\n\r\n- set `PORT`\r\n';
    const result = await extractText({ body: Buffer.from(md), fileName: 'INSTALL.md' });
    assert.deepEqual(result, { title: 'Install guide', text: '# Install guide\n\nRun `npm install`.\n\n## Configure\n\n- set `PORT`', format: 'markdown' });
  });

  it('treats Markdown that opens with inline HTML as Markdown', async () => {
    const result = await extractText({ body: Buffer.from('<div align="center"><img src="logo.png"></div>\n\n# Parley\n\nChat bots.'), contentType: 'text/markdown' });
    assert.equal(result.format, 'markdown');
  });

  it('reads plain text, including Windows-1252 text that is not UTF-8', async () => {
    const utf8 = await extractText({ body: Buffer.from('Opening hours\r\nMonday to Friday\r\n'), contentType: 'text/plain; charset=utf-8' });
    assert.deepEqual(utf8, { title: '', text: 'Opening hours\nMonday to Friday', format: 'text' });
    const legacy = await extractText({ body: Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x20, 0x93, 0x4f, 0x4b, 0x94, 0x20, 0x80]), fileName: 'cafe.txt' });
    assert.equal(legacy.text, 'Café “OK” €');
  });

  it('reads UTF-16 text with a byte-order mark', async () => {
    const body = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Returns within 30 days', 'utf16le')]);
    const result = await extractText({ body, fileName: 'returns.txt' });
    assert.equal(result.text, 'Returns within 30 days');
  });

  it('returns empty text for an empty body', async () => {
    assert.deepEqual(await extractText({ body: Buffer.alloc(0), contentType: 'text/plain' }), { title: '', text: '', format: 'text' });
  });
});

describe('extractText: text that only looks like JSON', () => {
  it('reads braces in prose as text', async () => {
    const text = await extractText({ body: Buffer.from('{Draft} Our hours are nine to five [Mon-Fri]'), contentType: 'text/plain' });
    assert.match(text.text, /nine to five/);
  });
});

describe('extractText: refusals by content, not by name', () => {
  const cases: [string, () => Buffer, { contentType?: string; fileName?: string }][] = [
    ['a PNG sent as text/html', () => PNG, { contentType: 'text/html' }],
    ['a PNG named .pdf', () => PNG, { fileName: 'report.pdf', contentType: 'application/pdf' }],
    ['a ZIP named .docx', () => fixture('archive.zip'), { fileName: 'letter.docx' }],
    ['a ZIP sent as text/plain', () => fixture('archive.zip'), { contentType: 'text/plain' }],
    ['an ELF executable named .txt', elfBytes, { fileName: 'readme.txt', contentType: 'text/plain' }],
    ['an ELF executable sent as text/html', elfBytes, { contentType: 'text/html' }],
    ['a gzip archive named .csv', () => Buffer.from('1f8b0800000000000003cb48cdc9c95728cf2fca4901000ad2e13e0c000000', 'hex'), { fileName: 'data.csv' }],
    ['unknown binary data named .md', () => Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 37) % 256)), { fileName: 'notes.md' }],
    ['JSON', () => Buffer.from('{"question":"hours?"}'), { contentType: 'application/json' }],
    ['JSON sent as application/octet-stream', () => Buffer.from('{"product":"The json yak code is YAK-7070"}'), { contentType: 'application/octet-stream', fileName: 'yak.json' }],
    ['JSON named .txt', () => Buffer.from('[{"q":"hours?","a":"nine to five"}]\n'), { contentType: 'text/plain', fileName: 'faq.txt' }],
    ['a .json file that does not parse', () => Buffer.from('{"broken": '), { fileName: 'data.json' }],
    ['an SVG image', () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><text>hi</text></svg>'), { contentType: 'image/svg+xml' }],
    ['an RSS feed', () => Buffer.from('<?xml version="1.0"?><rss version="2.0"><channel><title>News</title></channel></rss>'), { contentType: 'text/plain' }],
  ];
  for (const [label, body, options] of cases) {
    it(`refuses ${label}`, async () => {
      await assert.rejects(extractText({ body: body(), ...options }), (err: unknown) => {
        assert.ok(err instanceof UnsupportedContentError, String(err));
        assert.equal(err.status, 415);
        return true;
      });
    });
  }
});
