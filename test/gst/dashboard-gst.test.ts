// GST on the dashboard (docs/decisions/17-the-organisers-office.md): the account page's settings form (the API's rules, in the
// mode the dashboard shows) and the event form's tax fields.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DashboardClient } from '../helpers/dashboard.js';
import { uniqueEmail } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { eventTitled } from '../helpers/rows.js';

describe('dashboard GST settings', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server?.close();
  });

  it('saves the account’s settings through the form, refusing a GSTIN with a wrong check character', async () => {
    const c = new DashboardClient(server.url);
    await c.signup(uniqueEmail('gstdash'));
    const page = await c.get('/dashboard/account');
    assert.equal(page.status, 200);
    assert.match(page.text, /<h2 id="gst-h">GST \(test mode\)<\/h2>/);
    assert.match(page.text, /confirm these settings, and each event’s tax category, with your tax adviser/);
    const csrf = DashboardClient.csrf(page.text);
    const fields = {
      _csrf: csrf,
      legalName: 'Dash Arts LLP',
      address: 'Pune',
      state: '',
      seriesPrefix: 'da',
    };

    // A refusal goes back to the page with the reason.
    const wrong = await c.post(
      '/dashboard/account/gst',
      { ...fields, gstin: '27AAPFU0939F1ZA' },
      { referer: `${server.url}/dashboard/account` },
    );
    assert.equal(wrong.status, 303);
    const refused = await c.get(wrong.location!);
    assert.match(refused.text, /class="flash error"[\s\S]*check character/);
    assert.doesNotMatch(refused.text, /Dash Arts LLP/, 'nothing saved');

    const ok = await c.post('/dashboard/account/gst', { ...fields, gstin: '27aapfu0939f1zv' });
    assert.equal(ok.status, 303);
    assert.equal(ok.location, '/dashboard/account');
    const shown = await c.get('/dashboard/account');
    assert.match(shown.text, /GST settings saved\./);
    assert.match(shown.text, /id="g-gstin" name="gstin"[^>]*value="27AAPFU0939F1ZV"/);
    assert.match(shown.text, /<option value="27" selected>Maharashtra \(27\)<\/option>/);
    assert.match(shown.text, /id="g-prefix"[^>]*value="DA"/);
    const row = await server.deps.db
      .selectFrom('gst_profiles')
      .selectAll()
      .where('legal_name', '=', 'Dash Arts LLP')
      .executeTakeFirstOrThrow();
    assert.deepEqual(
      [row.mode, row.gstin, row.state_code, row.series_prefix],
      ['test', '27AAPFU0939F1ZV', '27', 'DA'],
    );
  });

  it('the event form carries the tax category, venue state, SAC and supplier GSTIN', async () => {
    const c = new DashboardClient(server.url);
    await c.signup(uniqueEmail('gstev'));
    const form = await c.get('/dashboard/events/new');
    assert.match(form.text, /<select id="f-tax" name="taxCategory">/);
    // A title of this run's own: the database may hold other runs' events.
    const title = `Sitar night ${uniqueEmail('t').split('@')[0]}`;
    const base = {
      _csrf: DashboardClient.csrf(form.text),
      title,
      description: '',
      startDate: '2030-01-01T19:00',
      capacity: '0',
      price: '450',
      maxTeamSize: '1',
    };
    const bad = await c.post('/dashboard/events', { ...base, taxCategory: 'standard', sac: '12' });
    assert.match((await c.get(bad.location!)).text, /class="flash error"[\s\S]*SAC/);
    assert.equal(await eventTitled(server, title), undefined);
    const made = await c.post('/dashboard/events', {
      ...base,
      taxCategory: 'admission_exempt_upto_500',
      venueState: '27',
      sac: '999623',
      supplierGstin: '',
    });
    assert.equal(made.status, 303, made.text.slice(0, 300));
    const row = (await eventTitled(server, title))!;
    assert.deepEqual(
      [row.tax_category, row.venue_state, row.sac, row.supplier_gstin],
      ['admission_exempt_upto_500', '27', '999623', null],
    );
    const edit = await c.get(`${made.location!.replace(/\?.*$/, '')}/setup`);
    assert.match(edit.text, /<option value="admission_exempt_upto_500" selected>/);
    assert.match(edit.text, /id="f-sac" name="sac"[^>]*value="999623"/);
  });
});
