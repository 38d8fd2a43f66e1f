/**
 * The bot's colour carries white text (launcher, header, the visitor's bubbles), so it must reach
 * WCAG's 4.5:1 contrast against white; a colour that does not is darkened until it does.
 */

/** The colour used when the bot's is not a hex colour. */
export const DEFAULT_PRIMARY = '#2563eb';

/** WCAG AA for normal text. */
export const MIN_CONTRAST = 4.5;

type Rgb = [number, number, number];

/** `#rgb` or `#rrggbb` as channels 0 to 255; null for anything else. */
export function parseHexColor(text: string): Rgb | null {
  const match = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(text.trim());
  if (!match) return null;
  let hex = match[1]!;
  if (hex.length === 3) hex = hex.replace(/./g, (c) => c + c);
  return [parseInt(hex.slice(0, 2), 16), parseInt(hex.slice(2, 4), 16), parseInt(hex.slice(4, 6), 16)];
}

function relativeLuminance([r, g, b]: Rgb): number {
  const linear = (channel: number) => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** The contrast ratio of two colours (1 to 21). */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** The contrast ratio of white text on this colour. */
export const contrastWithWhite = (rgb: Rgb) => contrastRatio(rgb, [255, 255, 255]);

const toHex = (rgb: Rgb) => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;

/** The bot's colour as `#rrggbb`, darkened (same hue) until white text on it reaches 4.5:1. */
export function accessiblePrimary(color: string): string {
  let rgb = parseHexColor(color) ?? parseHexColor(DEFAULT_PRIMARY)!;
  // Scaling every channel by the same factor keeps the hue; 5 % a step reaches black in time.
  for (let step = 0; step < 100 && contrastWithWhite(rgb) < MIN_CONTRAST; step++) {
    rgb = rgb.map((c) => Math.floor(c * 0.95)) as Rgb;
  }
  return toHex(rgb);
}

/** The dark theme's background, which the minimal style's accent (the colour as text) stands on. */
const DARK_BACKGROUND: Rgb = [17, 24, 39];

/** The bot's colour lightened (towards white) until it reads at 4.5:1 as text on the dark theme. */
export function accentOnDark(color: string): string {
  let rgb = parseHexColor(color) ?? parseHexColor(DEFAULT_PRIMARY)!;
  for (let step = 0; step < 100 && contrastRatio(rgb, DARK_BACKGROUND) < MIN_CONTRAST; step++) {
    rgb = rgb.map((c) => Math.ceil(c + (255 - c) * 0.08)) as Rgb;
  }
  return toHex(rgb);
}
