// A members-only tier proved by a code mailed to the member's address (docs/decisions/28-a-persons-day.md):
// asked for and checked on the hosted page, answered alike for members and others, short-lived,
// tried at most five times; its proof is what register takes in place of a pasted membershipId.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, createKey, organiser, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { drainJobs, startServer, type TestServer } from '../helpers/server.js';
import { memberCodesOf, runJobs } from '../helpers/rows.js';
import { createEventData, keyApi } from '../helpers/factories.js';

describe('members-only tiers proved by a mailed code', () => {
  let server: TestServer;
  let org: Account & KeyInfo;
  let pk: string;
  let slug: string;
  let eventId: string;
  let planSlug: string;
  let n = 0;

  before(async () => {
    server = await startServer({ isolatedDatabase: true, env: { TRUST_PROXY: '127.0.0.1' } });
    org = await organiser(server.url, 'test');
    pk = (await createKey(server.url, org.token, { mode: 'test', class: 'checkout' })).key;
    const e = await createEventData(api, {
      title: 'Members’ evening',
      description: 'Talks.',
      price: 500,
      specialPrices: [{ name: 'Members', price: 100, membersOnly: true }],
    });
    eventId = e.id;
    slug = e.slug;
    const p = await api('POST', '/api/v1/memberships/plans', {
      name: 'Annual',
      amount: 1200,
      kind: 'fixed_term',
      termMonths: 12,
    });
    planSlug = p.body.data.slug;
  });
  after(async () => {
    await server?.close();
  });

  const api = keyApi(
    () => server.url,
    () => org.key,
  );
  // Each test speaks from an address of its own, so the per-address limit is its alone.
  const from = (addr: string) => ({ 'x-forwarded-for': addr });
  const page = (path: string, body: Record<string, unknown>, addr = `10.9.0.${++n}`) =>
    call(server.url, 'POST', `/e/${slug}${path}`, { body: { key: pk, ...body }, headers: from(addr) });

  async function member(): Promise<{ email: string; membershipId: string }> {
    const planId = (await api('GET', '/api/v1/memberships/plans')).body.data.find(
      (p: { slug: string }) => p.slug === planSlug,
    ).id;
    const email = uniqueEmail('member');
    const s = await api('POST', '/api/v1/memberships/subscribe', { planId, name: 'Member', email });
    assert.equal(s.status, 201, s.text);
    assert.equal(
      (await api('POST', `/api/v1/sandbox/orders/${s.body.orderId}/paid`)).body.result,
      'confirmed',
    );
    return { email, membershipId: s.body.membershipId };
  }

  type Mail = { to: string[]; subject: string; text: string };
  const mails = async (email: string) =>
    ((await api('GET', '/api/v1/sandbox/emails?limit=100')).body.data as Mail[]).filter((m) =>
      m.to.includes(email),
    );
  const codeMails = async (email: string) =>
    (await mails(email)).filter((m) => /members-only code/.test(m.subject));
  /** Runs the mail jobs until `count` code mails reached the address; answers the newest code. */
  async function mailedCode(email: string, count = 1): Promise<string> {
    await drainJobs(server, async () => (await codeMails(email)).length >= count);
    const all = await codeMails(email);
    return /: (\d{6})$/.exec(all[0]!.subject)![1]!;
  }
  const person = (email: string) => ({ name: 'Asha', email, ticketType: 'Members' });

  it('mails a member a six-digit code whose proof books the members-only tier, without a membership id', async () => {
    const m = await member();
    const asked = await page('/member-code', { email: m.email.toUpperCase() });
    assert.equal(asked.status, 202, asked.text);
    assert.deepEqual(asked.body, { sent: true, expiresInMinutes: 10 });
    const code = await mailedCode(m.email);
    const mail = (await codeMails(m.email))[0]!;
    assert.match(mail.text, new RegExp(`code for members-only tickets.*: ${code}`));
    assert.doesNotMatch(mail.text, new RegExp(m.membershipId), 'the mail proves by the code, not the id');

    // Only the hash is kept.
    const rows = await memberCodesOf(server, m.email);
    assert.equal(rows.length, 1);
    assert.notEqual(rows[0]!.code_hash, code);
    assert.doesNotMatch(rows[0]!.code_hash, new RegExp(code));

    const ok = await page('/member-code/verify', { email: m.email, code });
    assert.equal(ok.status, 200, ok.text);
    assert.match(ok.body.proof, /^mpf_/);
    assert.equal(new Date(ok.body.expiresAt).getTime(), server.clock.now().getTime() + 60 * 60_000);

    // The proof books on the hosted page; the old membershipId path still books for API callers.
    const booked = await page('/register', { ...person(m.email), memberProof: ok.body.proof });
    assert.equal(booked.status, 201, booked.text);
    assert.equal(booked.body.status, 'payment_required');
    assert.equal(booked.body.amount, 10000);
    const byId = await api(
      'POST',
      `/api/v1/events/${eventId}/register`,
      { ...person(m.email), membershipId: m.membershipId },
      pk,
    );
    assert.equal(byId.status, 201, byId.text);
    const byProofApi = await api(
      'POST',
      `/api/v1/events/${eventId}/register`,
      { ...person(m.email), memberProof: ok.body.proof },
      pk,
    );
    assert.equal(byProofApi.status, 201, byProofApi.text);

    // A code works once.
    const again = await page('/member-code/verify', { email: m.email, code });
    assert.equal(again.status, 400);
    assert.equal(again.body.code, 'member_code_expired');
  });

  it('refuses a proof for another email, a forged one and a lapsed one (403 membership_required)', async () => {
    const m = await member();
    await page('/member-code', { email: m.email });
    const proof = (await page('/member-code/verify', { email: m.email, code: await mailedCode(m.email) }))
      .body.proof as string;
    const other = await page('/register', { ...person(uniqueEmail('other')), memberProof: proof });
    assert.equal(other.status, 403);
    assert.equal(other.body.code, 'membership_required');
    assert.equal(other.body.field, 'membershipId');
    const forged = await page('/register', { ...person(m.email), memberProof: `${proof.slice(0, -3)}AAA` });
    assert.equal(forged.body.code, 'membership_required');
    const none = await page('/register', person(m.email));
    assert.equal(none.body.code, 'membership_required');
    server.clock.advance(61 * 60_000);
    const lapsed = await page('/register', { ...person(m.email), memberProof: proof });
    assert.equal(lapsed.status, 403);
    assert.equal(lapsed.body.code, 'membership_required');
  });

  it('says a code is wrong with the tries left, and lets a code go after ten minutes', async () => {
    const m = await member();
    await page('/member-code', { email: m.email });
    const code = await mailedCode(m.email);
    const wrong = await page('/member-code/verify', {
      email: m.email,
      code: code === '000000' ? '111111' : '000000',
    });
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.code, 'member_code_wrong');
    assert.equal(wrong.body.field, 'code');
    assert.equal(wrong.body.triesLeft, 4);
    server.clock.advance(10 * 60_000 + 1000);
    const late = await page('/member-code/verify', { email: m.email, code });
    assert.equal(late.status, 400);
    assert.equal(late.body.code, 'member_code_expired');
    // A new code works; the newest code is the one that counts.
    await page('/member-code', { email: m.email });
    const fresh = await mailedCode(m.email, 2);
    assert.equal((await page('/member-code/verify', { email: m.email, code: fresh })).status, 200);
  });

  it('takes at most five tries: after them even the right code is refused (403 member_code_tries_used)', async () => {
    const m = await member();
    await page('/member-code', { email: m.email });
    const code = await mailedCode(m.email);
    const bad = code === '000000' ? '111111' : '000000';
    const answers: string[] = [];
    for (let i = 0; i < 5; i++)
      answers.push((await page('/member-code/verify', { email: m.email, code: bad })).body.code);
    assert.deepEqual(answers, [
      'member_code_wrong',
      'member_code_wrong',
      'member_code_wrong',
      'member_code_wrong',
      'member_code_tries_used',
    ]);
    const right = await page('/member-code/verify', { email: m.email, code });
    assert.equal(right.status, 403);
    assert.equal(right.body.code, 'member_code_tries_used');
  });

  it('answers a member and a non-member alike: same asking answer, same refusals, same tries; only the member gets mail', async () => {
    const m = await member();
    const stranger = uniqueEmail('stranger');
    const [a, b] = [
      await page('/member-code', { email: m.email }),
      await page('/member-code', { email: stranger }),
    ];
    assert.deepEqual([a.status, a.text], [b.status, b.text]);
    await mailedCode(m.email);
    await runJobs(server, { topic: 'membership.code_email' });
    assert.equal((await mails(stranger)).length, 0, 'a non-member is mailed nothing');
    const trail = async (email: string) => {
      const out: string[] = [];
      for (let i = 0; i < 6; i++) {
        const r = await page('/member-code/verify', { email, code: '999999x' });
        out.push(`${r.status} ${r.body.code} ${r.body.triesLeft ?? ''}`);
      }
      return out;
    };
    assert.deepEqual(await trail(stranger), await trail(m.email));
    const never = await page('/member-code/verify', { email: uniqueEmail('never'), code: '123456' });
    assert.equal(never.body.code, 'member_code_expired');
  });

  it('limits codes per address and per client address (429 with Retry-After), the same for anyone', async () => {
    const stranger = uniqueEmail('flood');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await page('/member-code', { email: stranger }, `10.8.${i}.1`)).status);
    assert.deepEqual(statuses, [202, 202, 202, 202, 202, 429]);
    const limited = await page('/member-code', { email: stranger }, '10.8.9.1');
    assert.equal(limited.body.code, 'too_many_attempts');
    assert.ok(Number(limited.headers.get('retry-after')) > 0);
    const addr = '10.7.0.1';
    const byAddr: number[] = [];
    for (let i = 0; i < 21; i++)
      byAddr.push((await page('/member-code', { email: uniqueEmail(`a${i}`) }, addr)).status);
    assert.deepEqual([byAddr.slice(0, 20).every((s) => s === 202), byAddr[20]], [true, 429]);
    assert.equal(
      (await page('/member-code', { email: uniqueEmail('b') }, '10.7.0.2')).status,
      202,
      'another address is served',
    );
    server.clock.advance(15 * 60_000);
    assert.equal((await page('/member-code', { email: stranger }, '10.8.10.1')).status, 202, 'a new window');
  });

  it('refuses what is not an address (400) and a test event without its key (404)', async () => {
    assert.equal((await page('/member-code', { email: 'not-an-address' })).body.code, 'invalid_email');
    assert.equal(
      (await call(server.url, 'POST', `/e/${slug}/member-code`, { body: { email: uniqueEmail('x') } }))
        .status,
      404,
    );
  });

  it('shows the code flow and a “Not a member? Join” link to the plan’s page beside a members-only tier', async () => {
    const html = (await call(server.url, 'GET', `/e/${slug}?key=${pk}`)).text;
    assert.match(html, /id="member-code-send"/);
    assert.match(html, /Not a member\?/);
    assert.match(html, new RegExp(`href="/m/${planSlug}\\?key=${pk}&amp;from=${slug}"`));
    const plan = await call(server.url, 'GET', `/m/${planSlug}?key=${pk}&from=${slug}`);
    assert.equal(plan.status, 200);
    assert.match(
      plan.text,
      new RegExp(`href="/e/${slug}\\?key=${pk}"`),
      'the plan page links back to the event',
    );
  });
});
