/**
 * The embed script: `<script src="{PUBLIC_URL}/widget.js" data-bot-id="…" async></script>`.
 * Finds its own tag, takes the service's address from its `src` (so it calls no one else), starts
 * the widget and installs `window.Parley`. It never throws into the host page.
 */
import { createEmitter, createPublicApi, type ParleyApi } from './public-api.ts';
import { startWidget } from './widget-element.tsx';

declare global {
  interface Window {
    Parley?: ParleyApi;
  }
}

function ownScript(): HTMLScriptElement | null {
  const current = document.currentScript;
  if (current instanceof HTMLScriptElement && current.hasAttribute('data-bot-id')) return current;
  return document.querySelector<HTMLScriptElement>('script[data-bot-id][src*="widget"]');
}

/** The script's address without its file name: the service's base URL, path prefix included. */
function baseOf(src: string): string {
  const url = new URL(src, location.href);
  return `${url.origin}${url.pathname.replace(/\/[^/]*$/, '')}`;
}

function boot(): void {
  // The snippet pasted twice loads one widget.
  if (window.Parley) return;
  const script = ownScript();
  const botId = script?.getAttribute('data-bot-id')?.trim();
  if (!script || !botId) {
    console.warn('Parley widget: the script tag needs a data-bot-id attribute');
    return;
  }
  const theme = script.getAttribute('data-theme');
  const emitter = createEmitter();
  emitter.on('ready', (detail) => dispatchEvent(new CustomEvent('parley:ready', { detail })));
  const controls = startWidget(
    {
      botId,
      base: baseOf(script.src),
      theme: theme === 'light' || theme === 'dark' ? theme : null,
      openAtStart: script.hasAttribute('data-open') && script.getAttribute('data-open') !== 'false',
    },
    emitter,
  );
  window.Parley = createPublicApi(controls, emitter);
}

try {
  boot();
} catch (err) {
  console.warn('Parley widget could not start', err);
}
