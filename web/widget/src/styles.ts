/**
 * The widget's style sheet, inside its shadow root. Sizes are in px, never rem (the host page's
 * root font size must not scale the widget), and `:host` resets every inherited property with
 * `!important`, which beats even the page's `!important` rules on the host element (important
 * declarations of the inner tree win). The three presets are `:host([data-style=…])` variants.
 */

/** Where the panel takes the whole screen (phones): the components read it too, to hide the launcher and keep the focus in the panel. */
export const FULL_SCREEN_QUERY = '(max-width: 480px)';

/** The style sheet, adopted by the shadow root. */
export const WIDGET_CSS = `
:host {
  all: initial !important;
  display: block !important;
  position: fixed !important;
  right: 0 !important;
  bottom: 0 !important;
  width: 0 !important;
  height: 0 !important;
  z-index: 2147483000 !important;
  font: 400 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif !important;
  color-scheme: light;
  --bg: #ffffff; --fg: #1f2937; --muted: #4b5563; --border: #d1d5db; --bubble: #f1f3f6; --field: #ffffff;
  --notice-bg: #fef3c7; --notice-fg: #713f12; --failure-bg: #fee2e2; --failure-fg: #7f1d1d;
  --focus: #1d4ed8; --shadow: 0 12px 40px rgba(15, 23, 42, .22);
  --accent: var(--primary);
}
:host([data-theme=dark]) {
  color-scheme: dark;
  --bg: #111827; --fg: #f3f4f6; --muted: #c0c6d0; --border: #374151; --bubble: #1f2937; --field: #0b1220;
  --notice-bg: #422006; --notice-fg: #fde68a; --failure-bg: #450a0a; --failure-fg: #fecaca;
  --focus: #93c5fd; --shadow: 0 12px 40px rgba(0, 0, 0, .6);
  --accent: var(--accent-dark);
}
@media (prefers-color-scheme: dark) {
  :host(:not([data-theme=light])) {
    color-scheme: dark;
    --bg: #111827; --fg: #f3f4f6; --muted: #c0c6d0; --border: #374151; --bubble: #1f2937; --field: #0b1220;
    --notice-bg: #422006; --notice-fg: #fde68a; --failure-bg: #450a0a; --failure-fg: #fecaca;
    --focus: #93c5fd; --shadow: 0 12px 40px rgba(0, 0, 0, .6);
    --accent: var(--accent-dark);
  }
}
*, *::before, *::after { box-sizing: border-box; }
[hidden] { display: none !important; }
button, input, textarea { font: inherit; color: inherit; margin: 0; }
button { cursor: pointer; background: none; border: 0; padding: 0; }
button:disabled { cursor: default; opacity: .55; }
:focus { outline: none; }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.sr-only { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
svg { display: block; fill: none; stroke: currentColor; stroke-width: 2; stroke-linecap: round; stroke-linejoin: round; }

.launcher {
  position: fixed; right: 20px; bottom: 20px; width: 56px; height: 56px; border-radius: 50%;
  display: flex; align-items: center; justify-content: center; gap: 8px;
  background: var(--primary); color: #fff; box-shadow: 0 6px 20px rgba(15, 23, 42, .28);
}
.launcher svg { width: 26px; height: 26px; }
.launcher-label { display: none; font-weight: 600; }
.badge {
  position: absolute; top: -4px; right: -4px; min-width: 20px; height: 20px; padding: 0 6px; border-radius: 10px;
  background: #b91c1c; color: #fff; font-size: 12px; line-height: 20px; font-weight: 700; text-align: center;
}

.panel {
  position: fixed; right: 20px; bottom: 88px; width: 380px; height: 600px;
  max-height: calc(100vh - 108px); max-width: calc(100vw - 40px);
  display: flex; flex-direction: column; overflow: hidden;
  background: var(--bg); color: var(--fg); border-radius: 14px; box-shadow: var(--shadow);
}
.header { display: flex; align-items: center; gap: 10px; padding: 14px 12px 14px 16px; background: var(--primary); color: #fff; }
.header :focus-visible { outline-color: #fff; }
.avatar { display: none; width: 34px; height: 34px; border-radius: 50%; background: var(--primary); color: #fff; align-items: center; justify-content: center; font-weight: 700; }
.title { flex: 1; margin: 0; font-size: 16px; font-weight: 600; line-height: 1.3; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.icon-button { width: 36px; height: 36px; border-radius: 8px; display: inline-flex; align-items: center; justify-content: center; flex: none; }
.icon-button svg { width: 20px; height: 20px; }
.notice { margin: 0; padding: 8px 16px; background: var(--notice-bg); color: var(--notice-fg); font-size: 13px; }

.log { flex: 1; overflow-y: auto; padding: 16px; display: flex; flex-direction: column; gap: 10px; overscroll-behavior: contain; }
.message { max-width: 85%; padding: 9px 12px; border-radius: 14px; overflow-wrap: anywhere; }
.message p, .message ul, .message ol, .message pre { margin: 0 0 8px; }
.message > .content > :last-child { margin-bottom: 0; }
.message ul, .message ol { padding-left: 20px; }
.message code { font: 13px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: rgba(127, 127, 127, .16); padding: 1px 4px; border-radius: 4px; }
.message pre { overflow-x: auto; white-space: pre; }
.message pre code { display: block; padding: 8px; }
.message a { color: inherit; text-decoration: underline; }
.from-visitor { align-self: flex-end; background: var(--primary); color: #fff; border-bottom-right-radius: 4px; white-space: pre-wrap; }
.from-bot, .from-operator { align-self: flex-start; background: var(--bubble); color: var(--fg); border-bottom-left-radius: 4px; }
.from-operator { border-left: 3px solid var(--primary); }
.author { display: block; font-size: 12px; font-weight: 600; color: var(--muted); margin-bottom: 2px; }
.typing { display: inline-block; color: var(--muted); letter-spacing: 2px; }
.sources { margin-top: 8px; padding-top: 6px; border-top: 1px solid var(--border); font-size: 13px; }
.sources ul { list-style: none; padding: 0; margin: 2px 0 0; }
.sources li { margin: 2px 0; }
.feedback { display: flex; gap: 4px; margin-top: 6px; }
.feedback button { width: 30px; height: 30px; border-radius: 6px; display: inline-flex; align-items: center; justify-content: center; color: var(--muted); }
.feedback button svg { width: 16px; height: 16px; }
.feedback button[aria-pressed=true] { color: #fff; background: var(--primary); }
.failure, .note, .upload { align-self: stretch; border-radius: 10px; padding: 10px 12px; font-size: 14px; }
.failure { background: var(--failure-bg); color: var(--failure-fg); display: flex; align-items: center; gap: 10px; }
.failure span { flex: 1; }
.failure button, .text-button { font-weight: 600; text-decoration: underline; padding: 4px 2px; }
.note { background: var(--bubble); color: var(--fg); }
.upload { align-self: flex-end; max-width: 85%; background: var(--bubble); display: flex; flex-direction: column; gap: 6px; }
.upload img { align-self: flex-start; max-width: 160px; max-height: 120px; border-radius: 6px; object-fit: cover; }
.upload .file { display: flex; align-items: center; gap: 8px; }
.upload .file svg { width: 22px; height: 22px; flex: none; color: var(--muted); }
.upload a { color: inherit; text-decoration: underline; }
.upload .status { font-size: 12px; color: var(--muted); }
.upload.failed .status { color: var(--failure-fg); }
.progress { height: 4px; border-radius: 2px; background: var(--border); overflow: hidden; }
.progress > div { height: 100%; background: var(--primary); }

.lead-form { margin: 0 16px 12px; padding: 12px; border: 1px solid var(--border); border-radius: 10px; display: flex; flex-direction: column; gap: 8px; }
.lead-form h3 { margin: 0; font-size: 14px; font-weight: 600; }
.lead-form label { display: flex; flex-direction: column; gap: 2px; font-size: 13px; }
.lead-form input { border: 1px solid var(--border); border-radius: 8px; padding: 8px 10px; background: var(--field); }
.lead-form .actions { display: flex; gap: 8px; justify-content: flex-end; align-items: center; }
.lead-form .problem { margin: 0; color: var(--failure-fg); font-size: 13px; }
.lead-form label + .problem { margin-top: -4px; }
.lead-form input[aria-invalid=true] { border-color: var(--failure-fg); }
.primary-button { background: var(--primary); color: #fff; border-radius: 8px; padding: 8px 14px; font-weight: 600; }
.lead-action { align-self: center; font-size: 13px; color: var(--muted); }

.composer { display: flex; align-items: flex-end; gap: 6px; padding: 10px; border-top: 1px solid var(--border); }
.composer textarea {
  flex: 1; min-height: 40px; max-height: 120px; resize: none; padding: 9px 10px;
  border: 1px solid var(--border); border-radius: 10px; background: var(--field); line-height: 1.4;
}
.composer textarea:focus-visible { outline-offset: 0; }
.send { background: var(--primary); color: #fff; }
.attach { color: var(--muted); }

/* bubble: a labelled pill, soft round panel, the header as a conversation partner. */
:host([data-style=bubble]) .launcher { width: auto; height: 52px; padding: 0 22px 0 18px; border-radius: 26px; }
:host([data-style=bubble]) .launcher-label { display: inline; }
:host([data-style=bubble]) .launcher svg { width: 22px; height: 22px; }
:host([data-style=bubble]) .panel { border-radius: 26px; bottom: 84px; }
:host([data-style=bubble]) .header { background: transparent; color: var(--fg); border-bottom: 1px solid var(--border); }
:host([data-style=bubble]) .header :focus-visible { outline-color: var(--focus); }
:host([data-style=bubble]) .avatar { display: inline-flex; }
:host([data-style=bubble]) .message { border-radius: 20px; }
:host([data-style=bubble]) .composer textarea { border-radius: 20px; padding-left: 14px; }
:host([data-style=bubble]) .send { border-radius: 50%; }

/* minimal: no colour blocks; thin lines, square corners, the colour only as an accent. */
:host([data-style=minimal]) .launcher { width: 48px; height: 48px; border-radius: 10px; background: var(--bg); color: var(--accent); border: 1px solid var(--border); box-shadow: 0 2px 8px rgba(15, 23, 42, .12); }
:host([data-style=minimal]) .panel { border-radius: 6px; border: 1px solid var(--border); box-shadow: 0 4px 16px rgba(15, 23, 42, .12); bottom: 80px; }
:host([data-style=minimal]) .header { background: var(--bg); color: var(--fg); border-bottom: 1px solid var(--border); }
:host([data-style=minimal]) .header :focus-visible { outline-color: var(--focus); }
:host([data-style=minimal]) .message { border-radius: 4px; }
:host([data-style=minimal]) .from-bot, :host([data-style=minimal]) .from-operator { background: transparent; border-left: 3px solid var(--accent); padding-left: 10px; }
:host([data-style=minimal]) .from-visitor { background: var(--bubble); color: var(--fg); }
:host([data-style=minimal]) .composer textarea { border-radius: 4px; }
:host([data-style=minimal]) .send { background: transparent; color: var(--accent); }

/* Phones: the panel takes the whole screen. */
@media ${FULL_SCREEN_QUERY} {
  .panel, :host([data-style]) .panel { right: 0; bottom: 0; width: 100%; height: 100%; max-width: none; max-height: none; border-radius: 0; border: 0; }
  .launcher { right: 16px; bottom: 16px; }
  /* Below 16px, iOS zooms the page into a field when it gets focus. */
  .composer textarea, .lead-form input { font-size: 16px; }
}
@media (prefers-reduced-motion: no-preference) {
  .panel:not([hidden]) { animation: parley-rise .16s ease-out; }
  @keyframes parley-rise { from { opacity: 0; transform: translateY(8px); } }
}
`;
