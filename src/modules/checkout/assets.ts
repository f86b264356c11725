// The files under assets/ that the browser side loads: embed.js for host pages, the hosted
// page's script, and its style sheet, which the attendee's own page (/t/{token}) uses too.
// Each is read once and named by a content version, so a versioned URL never changes.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// assets/ sits at the project root: three levels up from src/modules/checkout and from
// dist/modules/checkout alike.
const ASSET_DIR = new URL('../../../assets/', import.meta.url);

export interface Asset {
  body: string;
  etag: string;
  version: string;
  type: string;
}

/** One file, or several served as one (in this order: the hosted page's script is five). */
function loadAsset(names: string | readonly string[], type: string): Asset {
  const body = (typeof names === 'string' ? [names] : names)
    .map((name) => readFileSync(fileURLToPath(new URL(name, ASSET_DIR)), 'utf8'))
    .join('\n');
  const version = createHash('sha256').update(body).digest('hex').slice(0, 16);
  return { body, etag: `"${version}"`, version, type };
}

/** The hosted page's style sheet, served at /embed/page.css. */
export function loadPageStyle(): Asset {
  return loadAsset('checkout.css', 'text/css; charset=utf-8');
}

/** The style sheet's versioned URL, as the hosted page and the attendee page link it. */
export const pageStyleUrl = (pageCss: Asset): string => `/embed/page.css?v=${pageCss.version}`;

// altcha-lib's browser solver, in the order its modules import one another.
const ALTCHA_FILES = ['helpers.js', 'types.js', 'pow.js', 'algorithms/web/sha.js'];

/**
 * The waiting room's Web Worker: altcha-lib's own solver (the library the service verifies with)
 * made one classic script, its modules' import lines and export words removed, then
 * assets/pow-worker.js. A library whose files no longer fit that shape stops the service at start.
 */
export function loadPowWorker(): Asset {
  const dir = new URL('./', import.meta.resolve('altcha-lib'));
  const library = ALTCHA_FILES.map((name) =>
    readFileSync(fileURLToPath(new URL(name, dir)), 'utf8')
      .replace(/^import [^;]*;$/gm, '')
      .replace(/^export (?=(async )?function |class |const |var |let )/gm, ''),
  ).join('\n');
  if (/^\s*(import|export)\b/m.test(library))
    throw new Error('altcha-lib no longer fits the worker build (an import or export is left)');
  const own = readFileSync(fileURLToPath(new URL('pow-worker.js', ASSET_DIR)), 'utf8');
  const body = `(function () {\n'use strict';\n${library}\n${own}\n})();\n`;
  const version = createHash('sha256').update(body).digest('hex').slice(0, 16);
  return { body, etag: `"${version}"`, version, type: 'text/javascript; charset=utf-8' };
}

export function loadCheckoutAssets() {
  const embedJs = loadAsset('embed.js', 'text/javascript; charset=utf-8');
  // The form (summary, errors at fields), the confirmation's ticket and the seat map first: the page's main part uses them.
  const pageJs = loadAsset(
    ['checkout-form.js', 'checkout-ticket.js', 'checkout-seats.js', 'checkout-queue.js', 'checkout-page.js'],
    'text/javascript; charset=utf-8',
  );
  const pageCss = loadPageStyle();
  const planJs = loadAsset('plan-page.js', 'text/javascript; charset=utf-8');
  const powWorkerJs = loadPowWorker();
  return { embedJs, pageJs, pageCss, planJs, powWorkerJs };
}
