/**
 * The `<parley-chat>` custom element: a shadow root (the page's CSS cannot reach in, the widget's
 * cannot leak out) holding the Preact app, wired to one store and one controller.
 */
import { render } from 'preact';
import { createApiClient } from './api-client.ts';
import { createChatController } from './chat-controller.ts';
import { accentOnDark, accessiblePrimary } from './color-contrast.ts';
import { App } from './components/app.tsx';
import type { Emitter, WidgetControls } from './public-api.ts';
import { createStore } from './store.ts';
import { WIDGET_CSS } from './styles.ts';
import { createVisitorStorage } from './visitor-storage.ts';

export const ELEMENT_NAME = 'parley-chat';

/** The presets of `widget_style`; any other value is shown as the first. */
export const WIDGET_STYLES = ['classic', 'bubble', 'minimal'] as const;

export interface WidgetOptions {
  botId: string;
  /** The service's base URL, from the script's own address. */
  base: string;
  /** `data-theme`: a fixed theme, or null to follow the visitor's system (prefers-color-scheme). */
  theme: 'light' | 'dark' | null;
  /** `data-open`: open the panel as soon as it is ready. */
  openAtStart: boolean;
}

class ParleyChatElement extends HTMLElement {
  readonly root: ShadowRoot;
  constructor() {
    super();
    this.root = this.attachShadow({ mode: 'open' });
  }
}

/**
 * The style sheet as a constructed sheet, which the page's Content-Security-Policy does not
 * govern (a `<style>` element would need 'unsafe-inline'); a `<style>` only where browsers lack them.
 */
function adoptStyles(root: ShadowRoot): void {
  if ('adoptedStyleSheets' in root && 'replaceSync' in CSSStyleSheet.prototype) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(WIDGET_CSS);
    root.adoptedStyleSheets = [sheet];
  } else {
    const style = document.createElement('style');
    style.textContent = WIDGET_CSS;
    root.appendChild(style);
  }
}

function whenBodyExists(run: () => void): void {
  if (document.body) run();
  else document.addEventListener('DOMContentLoaded', run, { once: true });
}

/** Starts the widget: the configuration is fetched at once, the element is added once the page has a body. */
export function startWidget(options: WidgetOptions, emitter: Emitter): WidgetControls {
  if (!customElements.get(ELEMENT_NAME)) customElements.define(ELEMENT_NAME, ParleyChatElement);
  const host = document.createElement(ELEMENT_NAME) as ParleyChatElement;
  adoptStyles(host.root);
  if (options.theme) host.setAttribute('data-theme', options.theme);

  const store = createStore();
  const controller = createChatController({
    api: createApiClient(options.base, options.botId),
    storage: createVisitorStorage(options.botId),
    store,
    emitter,
    browserLanguages: navigator.languages?.length ? navigator.languages : [navigator.language],
    onLiveState: (state) => host.setAttribute('data-live', state),
  });

  // The bot's look is set as the configuration arrives, before the first render shows it.
  const stopWatching = store.subscribe(() => {
    const config = store.get().config;
    if (!config) return;
    stopWatching();
    const style = (WIDGET_STYLES as readonly string[]).includes(config.widget_style) ? config.widget_style : WIDGET_STYLES[0];
    host.setAttribute('data-style', style);
    // The widget's words may be in another language than the page's.
    host.setAttribute('lang', store.get().language);
    // CSSOM, not a style attribute: allowed under a strict style-src.
    host.style.setProperty('--primary', accessiblePrimary(config.primary_color));
    host.style.setProperty('--accent-dark', accentOnDark(config.primary_color));
  });

  const started = controller.start();
  whenBodyExists(() => {
    document.body.appendChild(host);
    const container = document.createElement('div');
    host.root.appendChild(container);
    const onLauncherReady = () => {
      host.setAttribute('data-ready', '');
      performance.mark?.('parley:launcher-ready');
    };
    render(<App store={store} controller={controller} host={host} onLauncherReady={onLauncherReady} />, container);
  });
  void started.then((ok) => {
    // A bot that does not exist or does not allow this page: no trace on the page.
    if (!ok) return whenBodyExists(() => host.remove());
    if (options.openAtStart) controller.open();
  });
  return controller;
}
