// Debian's Chromium driven by playwright-core (pinned to the version that expects it), and
// a host page server on another loopback origin than the service, so that origin checks
// are really exercised.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOTS = fileURLToPath(new URL('../../.tmp/screenshots/', import.meta.url));

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * How long a browser step may wait for the page before the test fails. Waits end as soon as the
 * page is ready, so this only bounds a hang; it is generous because CI runs two test files at
 * once, each with its own embedded PostgreSQL, and a 10 s bound failed there on a free booking.
 */
export const WAIT_MS = 30_000;

export interface BrowserSession {
  /** A new window with its own cookie jar (one per person in a test). */
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

/** One browser; Playwright gives each launch a fresh, temporary profile directory. `args` adds switches (a fake camera). */
export async function openBrowser(args: readonly string[] = []): Promise<BrowserSession> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [...ARGS, ...args],
  });
  const contexts: BrowserContext[] = [];
  return {
    async newPage() {
      const context = await browser.newContext({
        viewport: { width: 1280, height: 900 },
        locale: 'en-IN',
        timezoneId: 'Asia/Kolkata',
      });
      contexts.push(context);
      const page = await context.newPage();
      page.setDefaultTimeout(WAIT_MS);
      page.on('dialog', (d) => void d.accept());
      return page;
    },
    async close() {
      for (const c of contexts) await c.close();
      await browser.close();
    },
  };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  // Chromium now and then answers "Unable to capture screenshot" for a page that is fine
  // (seen once in a PostgreSQL pass under load): the capture is tried up to three times.
  for (let attempt = 1; ; attempt++) {
    try {
      await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
      return;
    } catch (err) {
      if (attempt >= 3 || !/Unable to capture screenshot/.test(String(err))) throw err;
    }
  }
}

/**
 * axe-core on the page as it stands: no WCAG 2.1 A/AA violation. Evaluated through the debugging
 * protocol, since the pages' CSP admits no injected script.
 */
export async function assertAccessible(page: Page, what: string): Promise<void> {
  await page.evaluate(readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));
  const violations = await page.evaluate(async () => {
    const r = await (window as any).axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return r.violations.map((v: any) => `${v.id}: ${v.nodes.map((n: any) => n.target.join(' ')).join(', ')}`);
  });
  assert.deepEqual(violations, [], `axe-core: ${what}`);
}

/** Screenshots `${name}-1280` and one per phone width (390 by default), each phone width checked for sideways scrolling; axe at the last. */
export async function shootAt(
  page: Page,
  name: string,
  phones: readonly (readonly [number, number])[] = [[390, 844]],
): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 900 });
  await screenshot(page, `${name}-1280`);
  for (const [width, height] of phones) {
    await page.setViewportSize({ width, height });
    const w = await fitsWidth(page);
    assert.ok(w.fits, `${name} fits ${width} px: scrollWidth ${w.scrollWidth} > ${w.width}`);
    await screenshot(page, `${name}-${width}`);
  }
  await assertAccessible(page, `${name} at ${phones.at(-1)![0]} px`);
}

/** Presses Tab until `selector` has the focus (at most 30 presses): how a keyboard user gets there. */
export async function tabTo(page: Page, selector: string): Promise<void> {
  for (let i = 0; i < 30; i++) {
    if (await page.locator(selector).evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  assert.fail(`Tab never reached ${selector}`);
}

/**
 * A new page at `width` px (a phone's height below 600 px) opened on `url`, its console errors
 * (but the favicon's and those `expected` says a test brings about) and its page errors pushed to
 * `errors`; with `clock`, Playwright's clock installed first.
 */
export async function openPage(
  session: BrowserSession,
  url: string,
  width: number,
  errors: string[],
  options: { expected?: (url: string, text: string) => boolean; clock?: boolean } = {},
): Promise<Page> {
  const page = await session.newPage();
  page.on('console', (m) => {
    const at = m.location().url;
    if (m.type() === 'error' && !at.endsWith('/favicon.ico') && !options.expected?.(at, m.text()))
      errors.push(`${at}: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  if (options.clock) await page.clock.install();
  await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
  await page.goto(url);
  return page;
}

/** Signs in to the dashboard through its form and, with `mode`, switches to that mode. */
export async function signInToDashboard(
  page: Page,
  baseUrl: string,
  email: string,
  password: string,
  mode?: 'test' | 'live',
): Promise<void> {
  await page.goto(`${baseUrl}/dashboard/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Events', level: 1 }).waitFor();
  if (mode === undefined) return;
  await page.getByRole('button', { name: mode === 'test' ? 'Test' : 'Live', exact: true }).click();
  await page.locator(`.mode button[value=${mode}][aria-pressed=true]`).waitFor();
}

/** True when the page is no wider than the viewport (no horizontal scroll). */
export async function fitsWidth(page: Page): Promise<{ fits: boolean; scrollWidth: number; width: number }> {
  return page.evaluate(() => ({
    fits: document.documentElement.scrollWidth <= window.innerWidth,
    scrollWidth: document.documentElement.scrollWidth,
    width: window.innerWidth,
  }));
}

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`no Chromium at ${CHROMIUM}: run \`apt-get install -y chromium\` (.ci/run does)`);
  const userDataDir = mkdtempSync(join(tmpdir(), 'svc-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: 1280, height: 900 },
  });
  context.setDefaultTimeout(WAIT_MS);
  mkdirSync(SCREENSHOTS, { recursive: true });
  return {
    context,
    async close() {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

export interface HostPages {
  /** http://localhost:<port> */
  origin: string;
  /** The same server under another origin (http://127.0.0.1:<port>). */
  otherOrigin: string;
  close(): Promise<void>;
}

/**
 * Serves `/page?html=<base64url body>` as a host page with a strict CSP: only its own
 * nonce'd script, and the lines docs/guides/hosted-checkout-and-embed.md tells a host to add for the service.
 */
export async function startHostPages(serviceOrigin: string): Promise<HostPages> {
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname !== '/page') {
      res.writeHead(404).end();
      return;
    }
    const nonce = Math.random().toString(36).slice(2);
    const body = Buffer.from(url.searchParams.get('html') ?? '', 'base64url')
      .toString('utf8')
      .replaceAll('NONCE', nonce);
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      // The host's own nonce'd script, and the two lines docs/guides/hosted-checkout-and-embed.md asks a host to add; no styles
      // at all, so anything embed.js tried to inject would be reported as a violation.
      'content-security-policy': `default-src 'none'; script-src 'nonce-${nonce}' ${serviceOrigin}; frame-src ${serviceOrigin}`,
    });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    origin: `http://localhost:${port}`,
    otherOrigin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A host page: `markup` in the body, embed.js from the service, and listeners that record what arrives. */
export function hostPage(serviceUrl: string, markup: string, opts: { embed?: boolean } = {}): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host</title>
<script nonce="NONCE">
window.__events = []; window.__elementEvents = []; window.__messages = []; window.__violations = [];
window.addEventListener('svc:registered', function (e) { window.__events.push(e.detail); });
window.addEventListener('message', function (e) { window.__messages.push({ origin: e.origin, data: e.data }); });
document.addEventListener('securitypolicyviolation', function (e) { window.__violations.push(e.violatedDirective + ' ' + e.blockedURI); });
document.addEventListener('DOMContentLoaded', function () {
  document.querySelectorAll('[data-svc-event],[data-svc-button]').forEach(function (el) {
    el.addEventListener('svc:registered', function (e) { window.__elementEvents.push(e.detail); });
  });
});
</script></head><body>
<h1>Our community site</h1>
${markup}
${opts.embed === false ? '' : `<script src="${serviceUrl}/embed.js" async></script>`}
</body></html>`;
}

export function hostUrl(host: HostPages, html: string, origin = host.origin): string {
  return `${origin}/page?html=${Buffer.from(html).toString('base64url')}`;
}
