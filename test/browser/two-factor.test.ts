// Two-factor sign-in in a real browser (docs/decisions/25-organiser-teams-and-roles.md): an
// organiser sets it up from the account screen (QR code and the key as text, a first code typed
// from the keyboard), sees the recovery codes once, signs out, signs in with the password and then
// a recovery code, all from the keyboard. Screenshots at 1280 and 390 px, axe on each screen.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { generate } from 'otplib';
import type { Page } from 'playwright-core';
import { openBrowser, shootAt, signInToDashboard, tabTo, type BrowserSession } from '../helpers/browser.js';
import { call, signup } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';

const PASSWORD = 'correct horse battery';

describe('two-factor sign-in in Chromium', { timeout: 180_000 }, () => {
  let server: TestServer;
  let browser: BrowserSession;
  let page: Page;

  before(async () => {
    server = await startServer({ isolatedDatabase: true });
    browser = await openBrowser();
    page = await browser.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('enrols with a QR code and a first code, signs out, and signs in with the password and a recovery code', async () => {
    const person = await signup(server.url);
    await signInToDashboard(page, server.url, person.email, PASSWORD);
    await page.getByRole('link', { name: 'Account' }).click();
    await page.getByRole('link', { name: 'Two-factor sign-in settings' }).click();
    await page.getByRole('heading', { name: 'Set up two-factor sign-in' }).waitFor();
    await shootAt(page, 'two-factor-off');

    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    await page.getByRole('heading', { name: 'Scan this with your authenticator app' }).waitFor();
    const qr = page.getByRole('img', { name: /QR code of your two-factor secret/ });
    assert.match((await qr.getAttribute('src')) ?? '', /^data:image\/png;base64,/);
    const secret = (await page.locator('#tf-secret').innerText()).replace(/\s/g, '');
    assert.match(secret, /^[A-Z2-7]{32}$/);
    await shootAt(page, 'two-factor-enrol');

    // The code field has the focus: type the code the app shows now and press Enter.
    await page.setViewportSize({ width: 1280, height: 900 });
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'en-code');
    const code = await generate({ secret, epoch: Math.floor(server.clock.now().getTime() / 1000) });
    await page.keyboard.type(code);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
    const codes = await page.locator('.recovery-codes li').allInnerTexts();
    assert.equal(codes.length, 10);
    await shootAt(page, 'two-factor-recovery-codes');

    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You are signed out.').waitFor();

    // The password alone no longer signs in: the code page follows.
    await page.getByLabel('Email').fill(person.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Two-factor sign-in', level: 1 }).waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.id), 't-code');
    await shootAt(page, 'two-factor-code');

    // No phone at hand: a recovery code, from the keyboard.
    await page.setViewportSize({ width: 1280, height: 900 });
    await tabTo(page, '#t-recovery');
    await page.keyboard.type(codes[3]!);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Events', level: 1 }).waitFor();

    // The code is spent: the account has nine left, and the same code signs in no more.
    const login = await call(server.url, 'POST', '/auth/login', {
      body: { email: person.email, password: PASSWORD },
    });
    assert.equal(login.body.twoFactorRequired, true);
    const again = await call(server.url, 'POST', '/auth/login/two-factor', {
      body: { challenge: login.body.challenge, recoveryCode: codes[3] },
    });
    assert.equal(again.body.code, 'invalid_two_factor_code');
    const other = await call(server.url, 'POST', '/auth/login/two-factor', {
      body: { challenge: login.body.challenge, recoveryCode: codes[4] },
    });
    const st = await call(server.url, 'GET', '/dashboard/api/two-factor', { token: other.body.idToken });
    assert.equal(st.body.recoveryCodesLeft, 8);
  });
});
