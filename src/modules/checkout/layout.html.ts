// The frame every hosted page shares (the head, its stylesheet and no-referrer policy) and the
// pieces the event, payment, plan and message pages have in common. Every value from the
// database goes through escapeHtml; a page's configuration travels in a JSON data block (not
// executed, so the CSP needs no inline script), with `<` escaped.
import { escapeHtml as h } from '../../lib/html.js';
import type { Strings } from './strings.js';

export const RAZORPAY_CHECKOUT_JS = 'https://checkout.razorpay.com/v1/checkout.js';

export interface Assets {
  css: string;
  js: string;
  /** The waiting room's proof-of-work Web Worker (pages with a room only). */
  powWorker?: string;
}

/** Rupees as the page writes them: "₹1,500", "₹1,50,000.50" (Indian grouping), "Free" for nothing. */
export function money(s: Strings, rupees: number): string {
  if (rupees === 0) return s.free;
  return new Intl.NumberFormat(s.locale, {
    style: 'currency',
    currency: 'INR',
    minimumFractionDigits: rupees % 1 === 0 ? 0 : 2,
  }).format(rupees);
}

export function jsonBlock(id: string, value: unknown): string {
  const json = JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026');
  return `<script type="application/json" id="${id}">${json}</script>`;
}

export function paragraphs(text: string): string {
  return text
    .split(/\r?\n\s*\r?\n/)
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map((p) => `<p>${h(p).replace(/\r?\n/g, '<br>')}</p>`)
    .join('\n');
}

export function layout(
  s: Strings,
  title: string,
  assets: Assets,
  body: string,
  opts: { bodyClass?: string; head?: string } = {},
): string {
  return `<!doctype html>
<html lang="${s.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${h(title)}</title>
<link rel="stylesheet" href="${h(assets.css)}">
${opts.head ?? ''}
</head>
<body class="${h(opts.bodyClass ?? 'standalone')}">
${body}
</body>
</html>
`;
}

/** A link from a message page back to the page it was reached from. */
export interface BackLink {
  href: string;
  label: string;
}

export function renderMessagePage(
  s: Strings,
  assets: Assets,
  title: string,
  message: string,
  status?: number,
  back?: BackLink,
): string {
  return layout(
    s,
    title,
    assets,
    `<main class="page message" id="main">
<h1>${h(title)}</h1>
<p>${h(message)}</p>
${status !== undefined ? `<p class="muted">HTTP ${status}</p>` : ''}
${back ? `<p class="actions"><a class="button-link" href="${h(back.href)}">${h(back.label)}</a></p>` : ''}
</main>`,
  );
}

/** The event's page as the widget opened it (key, origin, embed kept), for a way back to it. */
export function eventPageHref(
  slug: string,
  opened: {
    key?: string | null | undefined;
    origin?: string | null | undefined;
    embed?: string | null | undefined;
  },
): string {
  const q = new URLSearchParams();
  if (opened.key) q.set('key', opened.key);
  if (opened.origin) q.set('origin', opened.origin);
  if (opened.embed && opened.embed !== 'none') q.set('embed', opened.embed);
  const query = q.toString();
  return `/e/${encodeURIComponent(slug)}${query ? `?${query}` : ''}`;
}
