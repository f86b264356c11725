// Taking an account back in a real browser (docs/decisions/14-trust-and-safety-second-round.md): sign up, the
// verification mail (received over SMTP) opened while signed out changes nothing and
// asks to sign in; signed in, it confirms at once; then forgot password, the reset link from
// the mail, a new password, and sign-in with it — the idToken issued before is refused.
// Screenshots at 1280 and 390 px wide.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { fitsWidth, openBrowser, screenshot, type BrowserSession } from '../helpers/browser.js';
import { call, uniqueEmail } from '../helpers/http.js';
import { drainJobs, startServer, type TestServer } from '../helpers/server.js';
import { startSmtp, verificationLink, type SmtpSink } from '../helpers/smtp.js';

const PASSWORD = 'a long enough password';
const NEW_PASSWORD = 'another long passphrase';

describe('account recovery in Chromium', { timeout: 180_000 }, () => {
  let server: TestServer;
  let smtp: SmtpSink;
  let browser: BrowserSession;
  let page: Page;
  const email = uniqueEmail('recover');

  before(async () => {
    smtp = await startSmtp();
    server = await startServer({
      isolatedDatabase: true,
      env: { SMTP_URL: smtp.url, BASE_URL: 'https://tickets.example.in' },
    });
    browser = await openBrowser();
    page = await browser.newPage();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await smtp?.close();
  });

  /** A screenshot at 1280 px and at a phone's 390 px, which must not scroll sideways. */
  async function shoot(name: string) {
    await screenshot(page, `recovery-${name}-desktop`);
    await page.setViewportSize({ width: 390, height: 844 });
    const w = await fitsWidth(page);
    assert.ok(w.fits, `${name} fits 390 px: ${w.scrollWidth}`);
    await screenshot(page, `recovery-${name}-phone`);
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  /** The mail's link (naming BASE_URL's host), opened on the test server. */
  const local = (link: URL) => server.url + link.pathname + link.search;

  async function resetLink(): Promise<URL> {
    const resets = () =>
      smtp.messages.filter((m) => m.envelopeTo.includes(email) && m.subject === 'Reset your password');
    await drainJobs(server, async () => resets().length > 0);
    const m = /(https:\/\/tickets\.example\.in\/auth\/password\/reset\?token=[A-Za-z0-9_-]+)/.exec(
      resets()[0]!.text ?? '',
    );
    assert.ok(m, resets()[0]!.text);
    return new URL(m[1]!);
  }

  it('signs up, confirms the address signed in, resets the password from the mail, and signs in with it', async () => {
    await page.goto(`${server.url}/dashboard/signup`);
    await page.getByLabel('Your name').fill('Meera Owner');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel(/^Password/).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Verify your email address', level: 1 }).waitFor();
    const device = (await page.context().cookies(server.url)).find((c) => c.name === 'svc_device');
    assert.equal(device, undefined, 'sign-up is not a sign-in with a password check');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You are signed out.').waitFor();

    // The mail's link, opened signed out (what the owner — or a mail scanner — does): nothing
    // changes; the dashboard asks to sign in and comes back to confirm, with no second button.
    const link = await verificationLink(server, smtp, email);
    await page.goto(local(link));
    await page.getByRole('heading', { name: 'Sign in', level: 1 }).waitFor();
    await shoot('verify-link');
    const login = await call(server.url, 'POST', '/auth/login', { body: { email, password: PASSWORD } });
    assert.equal(login.body.emailVerified, false, 'opening the link verified nothing');
    const oldToken = login.body.idToken as string;

    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText(`Thank you: ${email} is verified.`).waitFor();
    await shoot('verify-done');
    const cookie = (await page.context().cookies(server.url)).find((c) => c.name === 'svc_device');
    assert.ok(cookie, 'signing in left the device cookie');
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.secure, true);
    assert.equal(cookie.sameSite, 'Lax');
    assert.ok(cookie.expires * 1000 - Date.now() > 360 * 86400_000, 'kept about a year');

    // The account screen offers change and sign-out-everywhere.
    await page.getByRole('link', { name: 'Account' }).click();
    await page.getByRole('heading', { name: 'Change your password' }).waitFor();
    await shoot('account');
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByText('You are signed out.').waitFor();

    // Forgot password: the page says the same for any address.
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
    await page.getByLabel('Email').fill(email);
    await shoot('forgot');
    await page.getByRole('button', { name: 'Mail me a link' }).click();
    await page.getByRole('heading', { name: 'Check your mail' }).waitFor();
    await shoot('forgot-sent');

    await page.goto(local(await resetLink()));
    await page.getByRole('heading', { name: 'Set a new password' }).waitFor();
    await shoot('reset');
    await page.getByLabel(/^New password/).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.getByText('Your new password is set').waitFor();
    await shoot('reset-done');

    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Email or password is wrong.').waitFor();
    await page.getByLabel('Password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Events', level: 1 }).waitFor();
    assert.equal(await page.getByText('Your email address is not verified yet.').count(), 0);

    // The idToken issued before the reset is refused; a new sign-in's works.
    const refused = await call(server.url, 'GET', '/dashboard/api/keys', { token: oldToken });
    assert.equal(refused.status, 401);
    assert.equal(refused.body.code, 'session_ended');
    const fresh = await call(server.url, 'POST', '/auth/login', { body: { email, password: NEW_PASSWORD } });
    assert.equal(
      (await call(server.url, 'GET', '/dashboard/api/keys', { token: fresh.body.idToken })).status,
      200,
    );
    await drainJobs(server, async () =>
      smtp.messages.some((m) => m.envelopeTo.includes(email) && m.subject === 'Your password was changed'),
    );
  });
});
