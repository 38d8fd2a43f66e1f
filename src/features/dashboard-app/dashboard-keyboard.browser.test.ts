// The dashboard by keyboard alone, in Debian's Chromium: Tab reaches the skip link, the navigation
// and every control, each visibly; Enter opens a screen, whose heading takes the focus; a
// confirmation dialog takes the focus, keeps Tab and Shift+Tab inside, closes on Escape and hands
// the focus back to the button that opened it (also when closed with its Cancel button, for the
// edit dialogs that exist only while open, and to the screen's content when the button went with
// a deleted row). And every control of the main screens has an
// accessible name, as Chromium computes it for screen readers.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { createBot, createKey, signUp, type Owner } from '../../testing/factories.ts';
import { dashboardBrowserSkip, heading, launchDashboardBrowser, signedInPage, WAIT_MS, type Watched } from '../../testing/dashboard-browser.ts';

interface Focus {
  tag: string;
  /** aria-label, else the label's text, else the text. */
  name: string;
  role: string | null;
  inDialog: boolean;
  inNav: boolean;
  /** Larger than the 1-pixel box of visually hidden content. */
  visible: boolean;
}

/** What has the focus. */
function focusOf(page: Page): Promise<Focus> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { tag: 'BODY', name: '', role: null, inDialog: false, inNav: false, visible: false };
    const rect = el.getBoundingClientRect();
    return {
      tag: el.tagName,
      name: (el.getAttribute('aria-label') ?? (el as HTMLInputElement).labels?.[0]?.textContent ?? el.textContent ?? '').trim().replace(/\s+/g, ' '),
      role: el.getAttribute('role'),
      inDialog: Boolean(el.closest('dialog[open]')),
      inNav: Boolean(el.closest('#sidebar')),
      visible: rect.width > 1 && rect.height > 1,
    };
  });
}

const describeFocus = (f: Focus) => `${f.tag} "${f.name.slice(0, 40)}"${f.visible ? '' : ' (invisible)'}`;

/** Presses Tab until `wanted` has the focus; every stop on the way must be visible. */
async function tabTo(page: Page, wanted: (f: Focus) => boolean, { max = 120, back = false } = {}): Promise<Focus> {
  const stops: Focus[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const focus = await focusOf(page);
    stops.push(focus);
    // Past the last control the focus leaves the page (the document itself) before it wraps to the
    // first: that is the browser's own stop, not one of the page's.
    if (focus.tag === 'BODY') continue;
    assert.ok(focus.visible, `every Tab stop is visible; invisible: ${describeFocus(focus)} after ${stops.slice(-4, -1).map(describeFocus).join(', ')}`);
    if (wanted(focus)) return focus;
  }
  throw new Error(`not reached with Tab in ${max} presses; stops: ${stops.map(describeFocus).join(', ')}`);
}

const named = (name: string) => (f: Focus) => f.name === name;

/** The dialog open now: its title, and whether the focus is inside it. */
async function openDialog(page: Page) {
  return page.evaluate(() => {
    const dialog = document.querySelector('dialog[open]');
    return dialog ? { title: dialog.querySelector('h2')?.textContent ?? '', focusInside: dialog.contains(document.activeElement) } : null;
  });
}

/** Tab and Shift+Tab, more times than the dialog has controls, never leave it. */
async function assertFocusTrapped(page: Page, presses = 6): Promise<void> {
  for (const key of ['Tab', 'Shift+Tab']) {
    for (let i = 0; i < presses; i++) {
      await page.keyboard.press(key);
      const focus = await focusOf(page);
      assert.ok(focus.inDialog, `${key} #${i + 1} keeps the focus in the dialog, not on ${describeFocus(focus)}`);
    }
  }
}

// Chromium's own roles for what a person operates or reads as a control.
const CONTROL_ROLES = new Set(['button', 'checkbox', 'ColorWell', 'combobox', 'link', 'listbox', 'menuitem', 'meter', 'PopUpButton', 'progressbar', 'radio', 'searchbox', 'slider', 'spinbutton', 'switch', 'tab', 'textbox']);

/** The controls of the page without an accessible name, as Chromium computes names for assistive technology. */
async function unnamedControls(page: Page): Promise<{ count: number; unnamed: string[] }> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as {
      nodes: Array<{ ignored: boolean; role?: { value: string }; name?: { value: string }; backendDOMNodeId?: number }>;
    };
    const controls = nodes.filter((n) => !n.ignored && CONTROL_ROLES.has(n.role?.value ?? ''));
    const unnamed: string[] = [];
    for (const node of controls.filter((n) => !(n.name?.value ?? '').trim())) {
      const { node: dom } = (await cdp.send('DOM.describeNode', { backendNodeId: node.backendDOMNodeId })) as { node: { nodeName: string; attributes?: string[] } };
      unnamed.push(`${node.role!.value} <${dom.nodeName.toLowerCase()} ${(dom.attributes ?? []).join(' ')}>`);
    }
    return { count: controls.length, unnamed };
  } finally {
    await cdp.detach();
  }
}

describe('Dashboard by keyboard', { skip: dashboardBrowserSkip }, () => {
  let t: TestApp;
  let browser: Browser;
  let owner: Owner;
  let botId = '';
  let watched: Watched;

  before(async () => {
    t = await startTestApp();
    browser = await launchDashboardBrowser();
    owner = await signUp(t, { name: 'Kim Owner' });
    botId = (await createBot(t, owner, { name: 'Keyboard bot' })).id;
    for (const [name, content] of [['Shipping', 'Orders leave within 2 working days.'], ['Returns', 'Return any item within 30 days.']]) {
      const text = await t.request('POST', `/api/dashboard/bots/${botId}/knowledge`, { token: owner.token, body: { type: 'text', name, content } });
      assert.equal(text.status, 201, text.text);
    }
    const item = await t.request('POST', `/api/dashboard/bots/${botId}/catalog/items`, { token: owner.token, body: { kind: 'product', name: 'Camp Mug', price: 12, currency: 'EUR' } });
    assert.equal(item.status, 201, item.text);
    await createKey(t, owner, botId, { name: 'Backend' });
    watched = await signedInPage(browser, t, owner.token);
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it('reaches the skip link first, then opens a screen from the navigation with Enter', async () => {
    const { page, problems } = watched;
    await page.goto(`${t.url}/app/bots/${botId}/inbox`);
    await heading(page, 'Inbox');
    const first = await tabTo(page, () => true, { max: 1 });
    assert.equal(first.name, 'Skip to content', 'the first Tab stop skips the header and navigation');

    await tabTo(page, (f) => f.inNav && f.name === 'Knowledge');
    await page.keyboard.press('Enter');
    await heading(page, 'Knowledge');
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1');
    assert.equal(new URL(page.url()).pathname, `/app/bots/${botId}/knowledge`);
    assert.equal((await focusOf(page)).name, 'Knowledge', 'the new screen’s heading has the focus');
    assert.deepEqual(problems, []);
  });

  it('opens a confirmation dialog with Enter: the focus moves in and stays there; Escape or Cancel gives it back to the opener, a deletion to the content', async () => {
    const { page, problems } = watched;
    await page.locator('tr[data-source="Shipping"]').waitFor({ timeout: WAIT_MS });
    await tabTo(page, named('Delete Shipping'));
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Delete “Shipping”?' }).waitFor({ timeout: WAIT_MS });
    assert.deepEqual(await openDialog(page), { title: 'Delete “Shipping”?', focusInside: true }, 'the focus moved into the dialog');
    await assertFocusTrapped(page);

    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden', timeout: WAIT_MS });
    assert.equal(await openDialog(page), null);
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Delete Shipping');
    assert.equal((await focusOf(page)).name, 'Delete Shipping', 'the focus is back on the button that opened it');
    assert.equal(await page.locator('tr[data-source="Shipping"]').count(), 1, 'nothing was deleted');

    // Its Cancel button does the same.
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Delete “Shipping”?' }).waitFor({ timeout: WAIT_MS });
    await tabTo(page, (f) => f.inDialog && f.name === 'Cancel', { max: 4 });
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor({ state: 'hidden', timeout: WAIT_MS });
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Delete Shipping');

    // Confirmed, the row goes with the button that opened the dialog: the focus goes to the screen's content.
    await tabTo(page, named('Delete Returns'), { back: true });
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Delete “Returns”?' }).waitFor({ timeout: WAIT_MS });
    await tabTo(page, (f) => f.inDialog && f.name === 'Delete source', { max: 4 });
    await page.keyboard.press('Enter');
    await page.locator('tr[data-source="Returns"]').waitFor({ state: 'detached', timeout: WAIT_MS });
    await page.waitForFunction(() => document.activeElement?.id === 'main');
    assert.deepEqual(problems, []);
  });

  it('edits a catalog item by keyboard: the dialog exists only while open, and still hands the focus back', async () => {
    const { page, problems } = watched;
    await tabTo(page, named('Edit Camp Mug'));
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Edit “Camp Mug”' }).waitFor({ timeout: WAIT_MS });
    const inside = await focusOf(page);
    assert.ok(inside.inDialog && inside.tag === 'INPUT', `the first field has the focus, not ${describeFocus(inside)}`);
    await assertFocusTrapped(page, 14);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached', timeout: WAIT_MS });
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Edit Camp Mug');

    // Change the price with the keyboard and save with Enter.
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Edit “Camp Mug”' }).waitFor({ timeout: WAIT_MS });
    await tabTo(page, (f) => f.inDialog && f.name === 'Price', { max: 4 });
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('13');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor({ state: 'detached', timeout: WAIT_MS });
    await page.locator('tr[data-item="Camp Mug"]', { hasText: '13 EUR' }).waitFor({ timeout: WAIT_MS });
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Edit Camp Mug');
    assert.deepEqual(problems, []);
  });

  it('opens the API keys by keyboard; the edit dialog closes with its Cancel button and gives the focus back', async () => {
    const { page, problems } = watched;
    await tabTo(page, (f) => f.inNav && f.name === 'API keys', { back: true });
    await page.keyboard.press('Enter');
    await heading(page, 'API keys');
    await page.locator('tr[data-key="Backend"]').waitFor({ timeout: WAIT_MS });
    await tabTo(page, named('Edit Backend'));
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Edit “Backend”' }).waitFor({ timeout: WAIT_MS });
    assert.ok((await openDialog(page))?.focusInside);
    await assertFocusTrapped(page, 10);
    await tabTo(page, (f) => f.inDialog && f.name === 'Cancel');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor({ state: 'detached', timeout: WAIT_MS });
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Edit Backend');

    await tabTo(page, named('Revoke Backend'));
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Revoke “Backend”?' }).waitFor({ timeout: WAIT_MS });
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Revoke Backend');
    assert.deepEqual(problems, []);
  });

  it('reaches every control of the Knowledge screen with Tab, each visibly, whichever way of adding knowledge is chosen', async () => {
    const { page, problems } = watched;
    await page.goto(`${t.url}/app/bots/${botId}/knowledge`);
    await heading(page, 'Knowledge');
    await page.locator('tr[data-source="Shipping"]').waitFor({ timeout: WAIT_MS });
    for (const mode of ['Text', 'Web page', 'Documents']) {
      await tabTo(page, (f) => f.tag === 'BUTTON' && f.name === mode, { back: mode !== 'Text' });
      await page.keyboard.press('Enter');
      assert.equal(await page.getByRole('button', { name: mode, exact: true }).getAttribute('aria-pressed'), 'true');
      // Through this way's form and the sources to the search preview, then the catalog to the end.
      await tabTo(page, named('Question'));
      await tabTo(page, named('Create or rotate the signing secret'));
    }
    assert.deepEqual(problems, []);
  });

  it('names every control of the Knowledge, Settings, API keys, Webhooks, Team and Customizer screens', async () => {
    const { page, problems } = watched;
    const report: string[] = [];
    const check = async (screen: string) => {
      const { count, unnamed } = await unnamedControls(page);
      assert.ok(count > 5, `${screen}: ${count} controls found`);
      report.push(...unnamed.map((u) => `${screen}: ${u}`));
    };
    // The check itself finds a control without a name.
    await page.evaluate(() => document.querySelector('main')!.append(Object.assign(document.createElement('input'), { id: 'unnamed-probe' })));
    assert.deepEqual((await unnamedControls(page)).unnamed, ['textbox <input id unnamed-probe>']);
    const open = async (segment: string, title: string) => {
      await page.goto(`${t.url}/app/bots/${botId}/${segment}`);
      await heading(page, title);
      await page.locator('.loading').first().waitFor({ state: 'detached', timeout: WAIT_MS });
    };

    await open('knowledge', 'Knowledge');
    for (const mode of ['Text', 'Web page', 'Documents']) {
      await page.getByRole('button', { name: mode, exact: true }).click();
      await check(`Knowledge (${mode})`);
    }
    await page.getByRole('button', { name: 'Add an item' }).click();
    await check('Knowledge (adding a catalog item)');
    await page.getByRole('button', { name: 'Edit Camp Mug' }).click();
    await check('Knowledge (editing a catalog item)');
    await page.keyboard.press('Escape');
    // The named controls are the ones a person asks for by their label.
    await page.getByLabel('Name', { exact: true }).first().waitFor();
    await page.getByRole('searchbox', { name: 'Question' }).waitFor();

    await open('settings', 'Settings');
    await page.getByRole('combobox', { name: 'Model' }).waitFor();
    await page.getByRole('checkbox', { name: 'Strict mode' }).waitFor();
    await page.getByRole('spinbutton', { name: 'Monthly message quota' }).waitFor();
    await check('Settings');

    await open('keys', 'API keys');
    await page.getByRole('textbox', { name: 'Name' }).waitFor();
    await page.getByRole('checkbox', { name: /^admin/ }).waitFor();
    await check('API keys');
    await page.getByRole('button', { name: 'Edit Backend' }).click();
    await check('API keys (editing a key)');
    await page.keyboard.press('Escape');

    await open('webhooks', 'Webhooks');
    await check('Webhooks');
    await open('customizer', 'Customizer');
    await check('Customizer');
    await page.goto(`${t.url}/app/team`);
    await heading(page, 'Team');
    await check('Team');

    assert.deepEqual(report, [], 'every control has an accessible name');
    assert.deepEqual(problems, []);
  });
});
