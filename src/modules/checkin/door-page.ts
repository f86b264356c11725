// The door screen's HTML and its static files: its script and style (assets/door.*)
// and jsQR's browser build, the camera's decoder where the browser has no
// BarcodeDetector. All served by the service itself: no CDN, no inline script or style.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { escapeHtml } from '../../lib/html.js';

// assets/ sits at the project root: three levels up from src/modules/checkin and dist/modules/checkin alike.
const ASSET_DIR = new URL('../../../assets/', import.meta.url);

function asset(stem: string, ext: 'js' | 'css', body: string) {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  return {
    name: `${stem}.${hash}.${ext}`,
    body,
    etag: `"${hash}"`,
    type: ext === 'css' ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8',
  };
}

const read = (name: string) => readFileSync(fileURLToPath(new URL(name, ASSET_DIR)), 'utf8');

/** The service worker (/door/sw.js): a fixed name, as a worker's scope follows its path. */
export const DOOR_SW = {
  body: read('door-sw.js'),
  etag: `"${createHash('sha256').update(read('door-sw.js')).digest('hex').slice(0, 12)}"`,
};
const JSQR = readFileSync(createRequire(import.meta.url).resolve('jsqr/dist/jsQR.js'), 'utf8');

export const DOOR_ASSETS = [
  asset('door', 'js', read('door.js')),
  asset('door', 'css', read('door.css')),
  asset('jsqr', 'js', JSQR),
] as const;
const [JS, CSS, DECODER] = DOOR_ASSETS;
const url = (a: { name: string }) => `/door/assets/${a.name}`;

function head(title: string, scripts: boolean): string {
  return `<!doctype html>
<html lang="en-IN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)} · Door</title>
<link rel="stylesheet" href="${url(CSS)}">${scripts ? `<script src="${url(DECODER)}" defer></script><script src="${url(JS)}" defer></script>` : ''}</head>`;
}

// The verdict sits first in the page: with the camera on it takes the video's place, so the
// name, the reason, Undo and Next are in view without scrolling on a small phone.
export function doorPage(v: { eventId: string; title: string; label: string; list: string }): string {
  return `${head(v.title, true)}
<body data-event="${escapeHtml(v.eventId)}">
<header class="top">
<h1>${escapeHtml(v.title)}</h1>
<p class="pass">Door pass: <strong>${escapeHtml(v.label)}</strong></p>
<p class="list" id="list">Admits for: <strong>${escapeHtml(v.list)}</strong></p>
<p class="counts" aria-live="polite"><span id="arrived">–</span> of <span id="expected">–</span> in</p>
<p id="net" class="net" role="status">Loading the list…</p>
</header>
<main id="main">
<section id="result" class="result" aria-live="assertive" tabindex="-1" hidden></section>
<section class="scan" id="scan" aria-label="Scan">
<button type="button" id="camera" class="big">Scan with camera</button>
<video id="video" muted playsinline hidden></video>
<canvas id="frame" hidden></canvas>
<p id="camera-note" class="note" role="status"></p>
</section>
<form id="search" role="search" novalidate>
<label for="q">Search by name or ticket code</label>
<div class="search-row"><input id="q" name="q" type="search" autocomplete="off" autocapitalize="off" spellcheck="false" maxlength="200"><button type="submit" class="find">Find</button></div>
</form>
<ul id="matches" class="matches" aria-label="People found"></ul>
<section id="conflicts" class="conflicts" hidden aria-labelledby="conflicts-h">
<h2 id="conflicts-h">Conflicts from the last sync</h2>
<ul id="conflict-list"></ul>
<button type="button" id="conflicts-ok" class="secondary">Dismiss</button>
</section>
<p id="queue" class="note" role="status"></p>
<p id="device" class="note"></p>
</main>
</body></html>`;
}

export function doorErrorPage(message: string): string {
  const text = message.charAt(0).toUpperCase() + message.slice(1) + (/[.!?]$/.test(message) ? '' : '.');
  return `${head('Door closed', false)}
<body><main id="main" class="closed"><h1>This door link does not work</h1><p>${escapeHtml(text)}</p><p>Ask the organiser for a new link.</p></main></body></html>`;
}
