// The Team screen, the organisation switch and the door member's door in Chromium
// (docs/decisions/25-organiser-teams-and-roles.md): an owner who belongs to two organisations
// switches in the header and invites a finance member from the keyboard; a door member switches
// to the organisation, lands on the Door page, sees only their event, and opens its door screen
// without a door link. Screenshots at 1280 and 390 px; axe-core on each screen.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { openBrowser, shootAt, tabTo, type BrowserSession } from '../helpers/browser.js';
import { createEvent, keyApi } from '../helpers/factories.js';
import { organiser } from '../helpers/http.js';
import { addMembers, type RoleMember } from '../helpers/roles.js';
import { startServer, type TestServer } from '../helpers/server.js';

const PASSWORD = 'correct horse battery';

describe('the Team screen and the door member in Chromium', { timeout: 180_000 }, () => {
  let server: TestServer;
  let browser: BrowserSession;
  let owner: RoleMember;
  let door: RoleMember;
  let organisationId = '';
  const errors: string[] = [];

  before(async () => {
    server = await startServer();
    browser = await openBrowser();
    const founder = await organiser(server.url);
    organisationId = founder.userId;
    const api = keyApi(server.url, founder.key);
    const listed = await createEvent(api, { title: 'Baithak at the Ghats', startDate: '2030-02-01' });
    await createEvent(api, { title: 'Annual Concert', startDate: '2030-03-01' });
    [owner, door] = await addMembers(server, organisationId, [
      ['owner', { role: 'owner', eventIds: null }],
      ['door', { role: 'door', eventIds: [listed] }],
    ]);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  async function signIn(email: string): Promise<Page> {
    const page = await browser.newPage();
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${server.url}/dashboard/login`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1 }).waitFor();
    return page;
  }

  /** The header's switch, from the keyboard: Tab to it, choose, Tab to Switch, Enter. */
  async function switchTo(page: Page, id: string) {
    await tabTo(page, '#org-switch');
    await page.locator('#org-switch').selectOption(id);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.locator('.flash.ok').waitFor();
  }

  it('an owner in two organisations switches in the header and invites a finance member from the keyboard', async () => {
    const page = await signIn(owner.email);
    // Signed in, a person works in their own organisation first.
    await page.getByRole('heading', { name: 'Events', level: 1 }).waitFor();
    await switchTo(page, organisationId);
    assert.match(await page.locator('main').innerText(), /Baithak at the Ghats/);

    await page.getByRole('link', { name: 'Team' }).click();
    await page.getByRole('heading', { name: 'Team', level: 1 }).waitFor();
    const members = await page.locator('table').first().innerText();
    assert.match(members, new RegExp(door.email));
    assert.match(members, /door/);
    assert.match(members, /Baithak at the Ghats/);

    await tabTo(page, '#inv-email');
    await page.keyboard.type('accounts@punemusic.example');
    await page.keyboard.press('Tab');
    await page.locator('#inv-role').selectOption('finance');
    await page.locator('#inv-role').focus();
    await tabTo(page, 'button:text("Send the invitation")');
    await page.keyboard.press('Enter');
    await page.locator('.flash.ok').waitFor();
    assert.match(
      await page.locator('.flash.ok').innerText(),
      /Invitation sent to accounts@punemusic\.example/,
    );
    assert.match(await page.locator('main').innerText(), /accounts@punemusic\.example/);
    await shootAt(page, 'team');
    await page.close();
  });

  it('a door member lands on the Door page with their event only, and opens its door screen without a link', async () => {
    const page = await signIn(door.email);
    await switchTo(page, organisationId);
    // The events list sends a door member on to their Door page.
    await page.getByRole('heading', { name: 'Door', level: 1 }).waitFor();
    const nav = await page.getByRole('navigation', { name: 'Main' }).innerText();
    assert.doesNotMatch(nav, /Money|Team|Developers/);
    const body = await page.locator('main').innerText();
    assert.match(body, /Baithak at the Ghats/);
    assert.doesNotMatch(body, /Annual Concert/);
    await shootAt(page, 'door-member');

    await page.setViewportSize({ width: 390, height: 844 });
    await tabTo(page, 'button:text("Open the door screen")');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/door\/[A-Za-z0-9_-]+$/);
    await page.getByText('Baithak at the Ghats').first().waitFor();
    await page.close();
    assert.deepEqual(errors, []);
  });
});
