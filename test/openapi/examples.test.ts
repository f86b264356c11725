// Every documented example is sent to a real server and its answer checked against the
// document (docs/decisions/19-developers-and-operators.md): a typed client that builds a request the document allows
// must not get a refusal the document did not foresee. The test sets up what the examples
// need (an organiser, an event, bookings, a plan, a door pass, …), swaps each stand-in id of
// src/http/examples.ts (`EX`) for the object it made, sends each request example as the
// document gives it (path, query and body), and checks that the answer's status is the one the
// example documents and that its body validates (ajv) against that status's schema (a CSV
// answer: its type, a download, and the header row of its example). Every
// answer example in the document must validate against its schema too. An operation without
// an example, or one the test does not drive, fails here by name.
// To write a new entry: add the operation's request example and a step here, run this file with
// EXAMPLES_RECORD=<file> (an operation with no answer example yet then passes on any success),
// and copy its answer from <file>, where the real ids are written back as their stand-ins.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { generate } from 'otplib';
import addFormats from 'ajv-formats';
import { EX } from '../../src/http/examples.js';
import { attendeeToken } from '../../src/lib/attendee-token.js';
import { addRegistration, createEvent, keyApi, okApi, payInSandbox } from '../helpers/factories.js';
import { markNewestJobDead } from '../helpers/rows.js';
import {
  call,
  createKey,
  organiser,
  signup,
  uniqueEmail,
  type Account,
  type KeyInfo,
} from '../helpers/http.js';
import { challengeOf, mailedCode, solved } from '../helpers/queue.js';
import { drainJobs, startServer, type TestServer } from '../helpers/server.js';
import { makeWalletKeys, type WalletKeys } from '../helpers/wallet-keys.js';

type Json = Record<string, any>;
type Auth = { key: string } | { token: string } | { door: string } | { none: true };

/**
 * Operations this test cannot drive to the answer their example documents, with the reason.
 * Keep it short: each is still checked for an example, and its answer examples against the schema.
 */
const NOT_DRIVEN: Readonly<Record<string, string>> = {
  hostedPaymentCallback:
    'live events only (a test event answers 404): the gateway’s redirect back from its own hosted checkout',
  openHostedPaymentPage:
    'live events only (a test event answers 404): it opens the gateway’s own checkout page',
  planPaymentCallback:
    'live plans only (a test plan pays through the sandbox’s stand-in): the gateway’s redirect back from its own hosted checkout',
};

const RAZORPAY_WEBHOOK_SECRET = 'whsec_examples_test';
const WHATSAPP_APP_SECRET = 'whatsapp-app-secret';
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

interface Call {
  /** Stand-ins swapped for this call only (name of EX → real value). */
  ids?: Partial<Record<keyof typeof EX, string>>;
  auth?: Auth;
  /** The status to expect, when the example's own answer is not what this state gives. */
  expect?: number;
  /** Extra headers (signatures). Gets the body text as sent. */
  headers?: (body: string) => Record<string, string>;
}

interface Step {
  /** Sets up what the call needs; answers the call's particulars. */
  prepare?: () => Promise<Call | void>;
  /** Reads what later steps need from the answer of each request example. */
  read?: (body: any, name: string) => Promise<void> | void;
}

describe('every documented example, sent to a real server', { timeout: 600_000 }, () => {
  let server: TestServer;
  let wallet: WalletKeys;
  let doc: Json;
  let ajv: Ajv2020;
  const staffEmail = uniqueEmail('staff');
  let staff: Account;
  let org: Account & KeyInfo;
  let checkout: KeyInfo;
  /** EX name → the real value the examples stand for. */
  const real = new Map<string, string>();
  const set = (name: keyof typeof EX, value: string) => real.set(name, value);
  const recorded: Json = {};
  /** The order the plan page's join made (its sandbox payment pays it). */
  let planOrderId = '';

  before(async () => {
    wallet = makeWalletKeys();
    server = await startServer({
      isolatedDatabase: true,
      env: {
        ...wallet.env,
        STAFF_EMAILS: staffEmail,
        RAZORPAY_WEBHOOK_SECRET,
        WHATSAPP_TOKEN: 'EAAG-examples',
        WHATSAPP_PHONE_NUMBER_ID: '106540352242922',
        WHATSAPP_TEMPLATE: 'ticket_confirmed',
        WHATSAPP_APP_SECRET,
        WHATSAPP_VERIFY_TOKEN: EX.verifyToken,
        WHATSAPP_API_URL: 'http://127.0.0.1:9/v25.0/',
      },
    });
    const r = await call(server.url, 'GET', '/api/v1/openapi.json');
    assert.equal(r.status, 200);
    doc = r.body;
    ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
    addFormats.default(ajv);
    ajv.addSchema({ $id: 'https://document/', components: doc.components });
    staff = await signup(server.url, { email: staffEmail });
    org = await organiser(server.url);
    // Publishing needs the platform's grant (setOrganiserAccess, sent again below as its example).
    assert.equal(
      (
        await call(server.url, 'POST', `/admin/api/accounts/${org.userId}/organiser-access`, {
          token: staff.token,
          body: { canPublish: true },
        })
      ).status,
      200,
    );
    checkout = await createKey(server.url, org.token, { mode: 'test', class: 'checkout' });
    set('apiKey', org.key);
    set('checkoutKey', checkout.key);
  });
  after(async () => {
    await server?.close();
    wallet?.close();
  });

  // ---- helpers -------------------------------------------------------------------------

  const keyed = keyApi(
    () => server.url,
    () => org.key,
  );
  /** Calls with the organiser's key, checks the answer is a success and answers its body. */
  const api = okApi(keyed);
  /** An event seated on a row of six Gold seats (the seat examples' plan), made once. */
  let seatPlan: Promise<string> | undefined;
  /** A new event seated on that plan (the house-seat and move examples each want seats of their own). */
  const newSeatedEvent = async () => {
    seatPlan ??= api('POST', '/api/v1/seating-plans', {
      name: 'Examples hall',
      grid: { sections: [{ name: 'Stalls', rows: 1, seatsPerRow: 6, category: 'Gold' }] },
    }).then((plan) => plan.data.id as string);
    return createEvent(keyed, {
      seatingPlanId: await seatPlan,
      specialPrices: [{ name: 'Gold', price: 0 }],
      maxTeamSize: 2,
    });
  };
  let seated: Promise<string> | undefined;
  const seatedEvent = () => (seated ??= newSeatedEvent());
  /** A seated event of its own for the hosted page's seat calls (their examples hold seats the API's hold too). */
  let seatedPage: Promise<string> | undefined;
  const seatedPageSlug = () =>
    (seatedPage ??= newSeatedEvent().then(
      async (id) => (await api('GET', `/api/v1/events/${id}`)).data.slug,
    ));
  /** Mail bodies the service wrote to DATA_DIR/mail, after running the queued jobs. */
  const mailText = async (to: string, pattern: RegExp): Promise<string> => {
    const find = () => {
      const dir = join(server.dataDir, 'mail');
      if (!existsSync(dir)) return undefined;
      for (const name of readdirSync(dir)
        .filter((n) => n.endsWith('.eml'))
        .sort()
        .reverse()) {
        const text = readFileSync(join(dir, name), 'utf8')
          .replace(/=\r?\n/g, '')
          .replace(/=3D/gi, '=');
        if (text.toLowerCase().includes(to.toLowerCase()) && pattern.test(text))
          return pattern.exec(text)![1];
      }
      return undefined;
    };
    await drainJobs(server, async () => find() !== undefined);
    return find()!;
  };
  const swap = (value: unknown, ids: Map<string, string>): unknown => {
    if (typeof value === 'string') {
      for (const [name, v] of ids) if (value === (EX as Record<string, string>)[name]) return v;
      return value;
    }
    if (Array.isArray(value)) return value.map((v) => swap(v, ids));
    if (value && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, swap(v, ids)]));
    return value;
  };
  /** The real values written back as their stand-ins, so a recorded answer reads as an example. */
  const unswap = (value: unknown): unknown => {
    if (typeof value === 'string') {
      let out = value;
      for (const [name, v] of [...real].sort((a, b) => b[1].length - a[1].length))
        if (v.length >= 6) out = out.split(v).join((EX as Record<string, string>)[name]!);
      return out;
    }
    if (Array.isArray(value)) return value.map(unswap);
    if (value && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, unswap(v)]));
    return value;
  };
  const compiled = new Map<string, ReturnType<Ajv2020['compile']>>();
  const validator = (schema: Json) => {
    const text = JSON.stringify(schema).replace(/"#\/components\//g, '"https://document/#/components/');
    if (!compiled.has(text)) compiled.set(text, ajv.compile(JSON.parse(text)));
    return compiled.get(text)!;
  };

  // ---- what each operation needs ------------------------------------------------------

  let freeEventId = '';
  /** An event whose waiting room is on (the queue's operations). */
  let roomEventSlug = '';
  const roomSlug = async () => {
    if (!roomEventSlug) {
      const id = await createEvent(keyed, {
        title: 'Stadium drop',
        startDate: '2027-02-01',
        onSale: { waitingRoom: { enabled: true } },
      });
      roomEventSlug = (await api('GET', `/api/v1/events/${id}`)).data.slug;
    }
    return roomEventSlug;
  };
  let soldOutEventId = '';
  let broadcastEventId = '';
  const freeRegistration = async (status: 'confirmed' | 'pending' = 'confirmed') =>
    addRegistration(server, freeEventId, { status });
  const approvalRegistration = async () => {
    const eventId = await createEvent(keyed, {
      title: 'Approval meetup',
      startDate: '2027-02-01',
      requiresApproval: true,
    });
    const r = await api('POST', `/api/v1/events/${eventId}/register`, {
      name: 'Ira',
      email: uniqueEmail('ira'),
    });
    return { eventId, registrationId: r.registrationId as string };
  };
  /** A booking awaiting a bank transfer of 499 on an event that takes one (for mark-paid's example). */
  const awaitingTransfer = async () => {
    const eventId = await createEvent(keyed, {
      title: 'Workshop paid by transfer',
      startDate: '2027-02-01',
      price: 499,
      offlinePayment: { enabled: true, methods: ['bank_transfer'], instructions: 'Pay to our account.' },
    });
    const r = await api('POST', `/api/v1/events/${eventId}/register`, {
      name: 'Ira',
      email: uniqueEmail('ira'),
      paymentMethod: 'bank_transfer',
    });
    return { eventId, registrationId: r.registrationId as string };
  };
  /** A paid booking on the example event, paid in the sandbox and confirmed. */
  const paidBooking = async () => {
    const s1 = await api('POST', `/api/v1/events/${real.get('eventId')}/register`, {
      name: 'Buyer',
      email: uniqueEmail('buyer'),
    });
    const paymentId = await payInSandbox(keyed, s1.orderId);
    await api('POST', `/api/v1/events/${real.get('eventId')}/register`, {
      registrationId: s1.registrationId,
      orderId: s1.orderId,
      paymentId,
    });
    return s1.registrationId as string;
  };
  const ticketToken = (registrationId: string) =>
    attendeeToken(server.deps.config.secretsKey, registrationId, registrationId);
  let newUserToken = '';
  let applicant: Account;
  const attendeeCsrf = async (token: string, action: string) => {
    const html = await (await fetch(`${server.url}/t/${token}`)).text();
    return (
      new RegExp(`action="/t/[^"]+/${action}">\\s*<input type="hidden" name="csrf" value="([^"]+)"`).exec(
        html,
      )?.[1] ?? ''
    );
  };
  /** A form posted from the service's own page. */
  const sameSite = () => ({ 'sec-fetch-site': 'same-origin' });
  const staffAuth = () => ({ token: staff.token });
  const session = () => ({ token: org.token });
  /** The invited member's own session (signed up with the invited address). */
  let memberToken = '';
  let twoFactorPerson: Account;
  let totpSecret = '';
  const twoFactorAuth = () => ({ auth: { token: twoFactorPerson.token } });
  /** The code of the next 30-second step, by the server's clock. */
  const nextTotpCode = async () => {
    server.clock.advance(30_000);
    set(
      'totpCode',
      await generate({ secret: totpSecret, epoch: Math.floor(server.clock.now().getTime() / 1000) }),
    );
  };

  const STEPS: Record<string, Step> = {
    getLiveness: {},
    getReadiness: {},
    getMetrics: {},
    getOpenApiDocument: {},
    signUp: { read: (b) => void ((newUserToken = b.idToken), set('userId', b.userId)) },
    logIn: { read: (b) => void (newUserToken = b.idToken) },
    resendVerificationEmail: { prepare: async () => ({ auth: { token: newUserToken } }) },
    openVerificationLink: {
      prepare: async () =>
        void set(
          'verificationToken',
          await mailText(EX.organiserEmail, /\/auth\/verify\?token=([A-Za-z0-9_-]+)/),
        ),
    },
    verifyEmail: { prepare: async () => ({ auth: { token: newUserToken } }) },
    requestPasswordReset: {},
    openPasswordResetLink: {
      prepare: async () =>
        void set(
          'resetToken',
          await mailText(EX.organiserEmail, /\/auth\/password\/reset\?token=([A-Za-z0-9_-]+)/),
        ),
    },
    resetPassword: {},
    changePassword: {
      prepare: async () => {
        const login = await call(server.url, 'POST', '/auth/login', {
          body: { email: EX.organiserEmail, password: EX.newPassword },
        });
        return { auth: { token: login.body.idToken } };
      },
      read: (b) => void (newUserToken = b.idToken),
    },
    logOutEverywhere: { prepare: async () => ({ auth: { token: newUserToken } }) },
    getMe: {},
    getAccountMailSettings: {},
    putAccountMailSettings: {},
    listApiKeys: { prepare: async () => ({ auth: session() }) },
    createApiKey: { prepare: async () => ({ auth: session() }), read: (b) => void set('keyId', b.data.id) },
    revokeApiKey: { prepare: async () => ({ auth: session() }) },
    listOrganisationMembers: { prepare: async () => ({ auth: session() }) },
    inviteMember: {
      prepare: async () => ({ auth: session() }),
      read: (b) => void set('invitationId', b.data.id),
    },
    acceptInvitation: {
      prepare: async () => {
        const member = await signup(server.url, { email: EX.memberEmail });
        memberToken = member.token;
        set('memberUserId', member.userId);
        set(
          'invitationToken',
          await mailText(EX.memberEmail, /\/dashboard\/invitations\/accept\?token=([A-Za-z0-9_-]+)/),
        );
        return { auth: { token: memberToken } };
      },
    },
    listOrganisations: { prepare: async () => ({ auth: { token: memberToken } }) },
    chooseOrganisation: {
      prepare: async () => ({ auth: { token: memberToken }, ids: { userId: org.userId } }),
    },
    changeMember: { prepare: async () => ({ auth: session() }) },
    removeMember: { prepare: async () => ({ auth: session() }) },
    withdrawInvitation: {
      prepare: async () => {
        const inv = await call(server.url, 'POST', '/dashboard/api/members', {
          token: org.token,
          body: { email: uniqueEmail('withdrawn'), role: 'viewer' },
        });
        set('invitationId', inv.body.data.id);
        return { auth: session() };
      },
    },
    // Two-factor: a person of their own enrols, signs in with a code and turns it off; each code
    // is of a step later than the last one taken (the server's clock moves on 30 seconds).
    getTwoFactor: {
      prepare: async () => {
        twoFactorPerson = await signup(server.url);
        return twoFactorAuth();
      },
    },
    startTwoFactorEnrolment: {
      prepare: async () => twoFactorAuth(),
      read: (b) => void (totpSecret = b.secret),
    },
    confirmTwoFactorEnrolment: { prepare: async () => (await nextTotpCode(), twoFactorAuth()) },
    regenerateRecoveryCodes: { prepare: async () => (await nextTotpCode(), twoFactorAuth()) },
    setTwoFactorRequirement: { prepare: async () => twoFactorAuth() },
    logInTwoFactor: {
      prepare: async () => {
        const l = await call(server.url, 'POST', '/auth/login', {
          body: { email: twoFactorPerson.email, password: 'correct horse battery' },
        });
        set('twoFactorChallenge', l.body.challenge);
        await nextTotpCode();
      },
    },
    disableTwoFactor: { prepare: async () => (await nextTotpCode(), twoFactorAuth()) },
    // The person enrols again and loses phone and codes: staff turn it off for them.
    resetTwoFactor: {
      prepare: async () => {
        const as = { token: twoFactorPerson.token };
        const start = await call(server.url, 'POST', '/dashboard/api/two-factor/enrol', as);
        server.clock.advance(30_000);
        const code = await generate({
          secret: start.body.secret,
          epoch: Math.floor(server.clock.now().getTime() / 1000),
        });
        const done = await call(server.url, 'POST', '/dashboard/api/two-factor/confirm', {
          ...as,
          body: { code },
        });
        assert.equal(done.status, 200, done.text);
        return { auth: staffAuth(), ids: { userId: twoFactorPerson.userId } };
      },
    },
    createEvent: {
      read: async (b) => {
        set('eventId', b.data.id);
        set('slug', b.data.slug);
        freeEventId = await createEvent(keyed, {
          title: 'Free meetup',
          startDate: '2027-02-01',
          selfService: { transfer: true, cancel: true },
        });
      },
    },
    listEvents: {},
    getEvent: {},
    updateEvent: {},
    createTrack: {},
    listTracks: {},
    updateTrack: {},
    // An event of its own with two tracks: the first goes, the second moves down to index 0.
    removeTrack: {
      prepare: async () => {
        const eventId = await createEvent(keyed, { title: 'Two rooms', startDate: '2027-01-16' });
        await api('POST', `/api/v1/events/${eventId}/tracks`, {
          title: 'Morning talks',
          price: 0,
          capacity: 50,
        });
        await api('POST', `/api/v1/events/${eventId}/tracks`, {
          title: 'Workshop: PostgreSQL internals',
          price: 299,
          capacity: 30,
          date: '2027-01-16T14:00:00+05:30',
          endDate: '2027-01-16T17:00:00+05:30',
        });
        return { ids: { eventId } };
      },
    },
    getAvailability: {},
    getAnalytics: {},
    putGstSettings: {},
    getGstSettings: {},
    createPromoCode: { read: (b) => void set('promoId', b.data.id) },
    listPromoCodes: {},
    // A paid booking's two steps, with the sandbox's payment between them.
    'register#step1': {
      read: (b) => void (set('registrationId', b.registrationId), set('orderId', b.orderId)),
    },
    sandboxPay: { read: (b) => void set('paymentId', b.paymentId) },
    'register#step2': {},
    listRegistrations: {},
    getRegistration: {},
    getInvoice: {},
    transferRegistration: {},
    approveRegistration: {
      prepare: async () => {
        const { eventId, registrationId } = await approvalRegistration();
        return { ids: { eventId, registrationId } };
      },
    },
    rejectRegistration: {
      prepare: async () => {
        const { eventId, registrationId } = await approvalRegistration();
        return { ids: { eventId, registrationId } };
      },
    },
    cancelRegistration: {
      prepare: async () => ({ ids: { eventId: freeEventId, registrationId: await freeRegistration() } }),
    },
    markRegistrationPaid: {
      prepare: async () => {
        const { eventId, registrationId } = await awaitingTransfer();
        return { ids: { eventId, registrationId } };
      },
    },
    // Its example's reference names no booking here: the line is listed (unknown_reference), a 200.
    uploadBankStatement: {},
    refundRegistration: {},
    getCreditNote: {},
    getGstr1Summary: {},
    sandboxNotifyOrderPaid: {
      prepare: async () => {
        const s1 = await api('POST', `/api/v1/events/${real.get('eventId')}/register`, {
          name: 'Closed the tab',
          email: uniqueEmail('tab'),
        });
        await payInSandbox(keyed, s1.orderId);
        return { ids: { orderId: s1.orderId } };
      },
    },
    lookUpTicket: {
      prepare: async () => ({ ids: { eventId: freeEventId, registrationId: await freeRegistration() } }),
    },
    checkIn: {
      prepare: async () => ({ ids: { eventId: freeEventId, registrationId: await freeRegistration() } }),
    },
    createDoorPass: {
      read: async (b) => {
        set('passId', b.data.id);
        const token = new URL(b.data.url).pathname.split('/').pop()!;
        set('doorToken', token);
        const html = await (await fetch(`${server.url}/door/${token}`)).text();
        set('doorAsset', /\/door\/assets\/([^"?]+\.js)/.exec(html)![1]!);
      },
    },
    listDoorPasses: {},
    openDoorScreen: {},
    getDoorAsset: {},
    getDoorServiceWorker: {},
    getDoorRoster: { prepare: async () => ({ auth: { door: real.get('doorToken')! } }) },
    syncDoorScans: {
      prepare: async () => ({
        auth: { door: real.get('doorToken')! },
        ids: { registrationId: await paidBooking() },
      }),
    },
    revokeDoorPass: {},
    joinWaitlist: {
      prepare: async () => {
        soldOutEventId = await createEvent(keyed, {
          title: 'Tiny room',
          startDate: '2027-02-01',
          capacity: 1,
          waitlist: { enabled: true },
        });
        await addRegistration(server, soldOutEventId);
        await api('PATCH', `/api/v1/events/${soldOutEventId}`, { status: 'published' });
        set('entryId', '');
        return { ids: { eventId: soldOutEventId } };
      },
    },
    listWaitlist: {
      prepare: async () => ({ ids: { eventId: soldOutEventId } }),
      read: (b) => void set('entryId', b.data[0].id),
    },
    removeWaitlistEntry: { prepare: async () => ({ ids: { eventId: soldOutEventId } }) },
    broadcast: {
      prepare: async () => {
        broadcastEventId = await createEvent(keyed, { title: 'Broadcast meetup', startDate: '2027-02-01' });
        await addRegistration(server, broadcastEventId);
        await addRegistration(server, broadcastEventId);
        return { ids: { eventId: broadcastEventId } };
      },
      read: (b, name) => {
        if (name === 'send') set('broadcastId', b.broadcastId);
      },
    },
    getBroadcast: { prepare: async () => ({ ids: { eventId: broadcastEventId } }) },
    putWebhookConfig: {},
    getWebhookConfig: {},
    listWebhookDeliveries: {},
    deleteWebhookConfig: {},
    createSeatingPlan: { read: (b) => void set('seatingPlanId', b.data.id) },
    listSeatingPlans: {},
    getSeatingPlan: {},
    updateSeatingPlan: {},
    listEventSeats: { prepare: async () => ({ ids: { eventId: await seatedEvent() } }) },
    getSeatStatuses: { prepare: async () => ({ ids: { eventId: await seatedEvent() } }) },
    holdSeats: {
      prepare: async () => ({ ids: { eventId: await seatedEvent() } }),
      read: (b) => void set('holdToken', b.data.holdToken),
    },
    releaseSeatHold: { prepare: async () => ({ ids: { eventId: await seatedEvent() } }) },
    blockHouseSeats: { prepare: async () => ({ ids: { eventId: await newSeatedEvent() } }) },
    releaseHouseSeats: {
      prepare: async () => {
        const eventId = await newSeatedEvent();
        await api('POST', `/api/v1/events/${eventId}/seats/block`, { seats: ['Stalls-A-3', 'Stalls-A-4'] });
        return { ids: { eventId } };
      },
    },
    moveBookingSeats: {
      prepare: async () => {
        const eventId = await newSeatedEvent();
        const hold = await api('POST', `/api/v1/events/${eventId}/seats/hold`, {
          seats: ['Stalls-A-1', 'Stalls-A-2'],
        });
        // fixture-exception: a seated booking, which the move example needs, is booked with its hold
        const booked = await api('POST', `/api/v1/events/${eventId}/register`, {
          name: 'Asha Rao',
          email: uniqueEmail('move'),
          holdToken: hold.data.holdToken,
          teamMembers: [{ name: 'Ravi Rao', email: uniqueEmail('move-member') }],
        });
        return { ids: { eventId, registrationId: booked.registrationId } };
      },
    },
    createPlan: { read: (b) => void set('planId', b.data.id) },
    listPlans: {},
    subscribe: { read: (b) => void (set('membershipId', b.membershipId), set('orderId', b.orderId)) },
    confirmMembershipPayment: {
      prepare: async () => {
        return { ids: { paymentId: await payInSandbox(keyed, real.get('orderId')!) } };
      },
    },
    listMembers: {},
    cancelMembership: {},
    sandboxAuthenticateSubscription: {
      prepare: async () => {
        const plan = await api('POST', '/api/v1/memberships/plans', {
          name: 'Monthly',
          amount: 199,
          kind: 'recurring',
          period: 'monthly',
        });
        const sub = await api('POST', '/api/v1/memberships/subscribe', {
          planId: plan.data.id,
          name: 'Zoya',
          email: uniqueEmail('zoya'),
        });
        set('subscriptionId', sub.subscriptionId);
      },
    },
    sandboxSubscriptionEvent: {},
    sandboxMoveClock: {},
    sandboxResetClock: {},
    sandboxListEmails: {},
    getEmbedScript: {},
    getHostedPageScript: {},
    getPowWorkerScript: {},
    getHostedPageStyle: {},
    openHostedPage: {},
    hostedSeatStatuses: { prepare: async () => ({ ids: { slug: await seatedPageSlug() } }) },
    hostedHoldSeats: {
      prepare: async () => ({ ids: { slug: await seatedPageSlug() } }),
      read: (b) => void set('holdToken', b.holdToken),
    },
    hostedReleaseSeats: { prepare: async () => ({ ids: { slug: await seatedPageSlug() } }) },
    hostedQuote: {},
    hostedRegister: {
      read: (b) => {
        set('orderId', b.orderId);
        set('attendeeToken', b.ticket);
      },
    },
    hostedRequestMemberCode: {},
    // The example's address holds no membership, so it was mailed no code: the example's code is refused.
    hostedVerifyMemberCode: { prepare: async () => ({ expect: 400 }) },
    hostedSandboxCheckout: {
      read: (b) => {
        set('paymentId', b.razorpay_payment_id);
        set('razorpaySignature', b.razorpay_signature);
      },
    },
    hostedConfirmPayment: {},
    hostedGetOrder: {},
    hostedGetTicket: {},
    hostedGetTicketCalendar: {},
    openHostedPaymentPage: {},
    getQueueChallenge: { prepare: async () => ({ ids: { slug: await roomSlug() } }) },
    joinQueue: {
      prepare: async () => {
        const slug = await roomSlug();
        return { ids: { slug, queueAltcha: await solved(await challengeOf(server.url, slug)) } };
      },
      read: (b) => void set('queueVerificationId', b.verificationId),
    },
    verifyQueue: {
      prepare: async () => ({
        ids: {
          slug: await roomSlug(),
          queueCode: await mailedCode(server.url, real.get('queueVerificationId')!),
        },
      }),
      read: (b) => void set('queueStatusToken', b.statusToken),
    },
    getQueueStatus: { prepare: async () => ({ ids: { slug: await roomSlug() } }) },
    hostedJoinWaitlist: {
      prepare: async () => ({
        ids: { slug: (await api('GET', `/api/v1/events/${soldOutEventId}`)).data.slug },
      }),
    },
    hostedPaymentCallback: {},
    getPlanPageScript: {},
    openPlanPage: {
      prepare: async () => {
        const plan = await api('POST', '/api/v1/memberships/plans', {
          name: 'Annual membership',
          amount: 1200,
          kind: 'fixed_term',
          termMonths: 12,
        });
        set('planSlug', plan.data.slug);
      },
    },
    joinPlanFromPage: {
      read: (html: string) => void (planOrderId = /name="order" value="([^"]+)"/.exec(html)![1]!),
    },
    planSandboxPay: { prepare: async () => ({ ids: { orderId: planOrderId } }) },
    planSandboxMandate: {
      prepare: async () => {
        const plan = await api('POST', '/api/v1/memberships/plans', {
          name: 'Monthly',
          amount: 199,
          period: 'monthly',
        });
        const sub = await api('POST', '/api/v1/memberships/subscribe', {
          planId: plan.data.id,
          name: 'Kabir',
          email: uniqueEmail('kabir'),
        });
        return { ids: { planSlug: plan.data.slug, subscriptionId: sub.subscriptionId } };
      },
    },
    openAttendeePage: {},
    attendeeTransfer: {
      prepare: async () => {
        const token = ticketToken(await paidBooking());
        return {
          ids: { attendeeToken: token, csrf: await attendeeCsrf(token, 'transfer') },
          headers: sameSite,
        };
      },
    },
    attendeeCancel: {
      prepare: async () => {
        const token = ticketToken(await freeRegistration());
        return {
          ids: { attendeeToken: token, csrf: await attendeeCsrf(token, 'cancel') },
          headers: sameSite,
        };
      },
    },
    getApplePass: {},
    getAttendeeDocument: {
      prepare: async () => {
        const registrationId = await paidBooking();
        const invoice = await api(
          'GET',
          `/api/v1/events/${real.get('eventId')}/registrations/${registrationId}/invoice`,
        );
        return { ids: { attendeeToken: ticketToken(registrationId), documentNumber: invoice.data.number } };
      },
    },
    openGoogleWalletLink: {},
    receiveRazorpayNotification: {
      prepare: async () => {
        const s1 = await api('POST', `/api/v1/events/${real.get('eventId')}/register`, {
          name: 'Webhook buyer',
          email: uniqueEmail('hook'),
        });
        const paymentId = await payInSandbox(keyed, s1.orderId);
        return {
          ids: { orderId: s1.orderId, paymentId, registrationId: s1.registrationId },
          headers: (body) => ({
            'x-razorpay-signature': createHmac('sha256', RAZORPAY_WEBHOOK_SECRET).update(body).digest('hex'),
          }),
        };
      },
    },
    verifyWhatsAppWebhook: {},
    receiveWhatsAppStatus: {
      prepare: async () => ({
        headers: (body) => ({
          'x-hub-signature-256': `sha256=${createHmac('sha256', WHATSAPP_APP_SECRET).update(body).digest('hex')}`,
        }),
      }),
    },
    getBalance: { prepare: async () => ({ auth: session() }) },
    listLedgerEntries: { prepare: async () => ({ auth: session() }) },
    listAuditLog: {},
    createPayout: {
      prepare: async () => {
        await api('POST', '/api/v1/sandbox/clock', { advanceDays: 7 });
        return { auth: session() };
      },
      read: (b) => void set('payoutId', b.id),
    },
    listPayouts: { prepare: async () => ({ auth: session() }) },
    getPayout: { prepare: async () => ({ auth: session() }) },
    sandboxSettlePayout: {},
    setOrganiserAccess: { prepare: async () => ({ auth: staffAuth(), ids: { userId: org.userId } }) },
    setEventTicketEmails: { prepare: async () => ({ auth: staffAuth() }) },
    addMemberByHand: { prepare: async () => ({ auth: staffAuth() }) },
    // Publishing access: an account that may not publish yet asks; staff grant one request and decline another.
    requestPublishingAccess: {
      prepare: async () => {
        applicant = await signup(server.url, { name: 'Asha Rao' });
        return { auth: { token: applicant.token } };
      },
      read: (b) => void set('publishingRequestId', b.data.id),
    },
    getPublishingAccess: { prepare: async () => ({ auth: { token: applicant.token } }) },
    listPublishingRequests: { prepare: async () => ({ auth: staffAuth() }) },
    grantPublishingRequest: { prepare: async () => ({ auth: staffAuth() }) },
    declinePublishingRequest: {
      prepare: async () => {
        const other = await signup(server.url, { name: 'Ravi Kumar' });
        const r = await call(server.url, 'POST', '/dashboard/api/publishing-access', {
          token: other.token,
          body: { message: 'Weekend workshops in Kochi.' },
        });
        assert.equal(r.status, 201, r.text);
        return { auth: staffAuth(), ids: { publishingRequestId: r.body.data.id } };
      },
    },
    // CSV exports (full key): the example event's bookings, the members, the ledger, the GST documents.
    exportRegistrations: {},
    exportMembers: {},
    exportLedger: {},
    exportGstDocuments: {},
    listJobs: {
      prepare: async () => {
        // A job that gave up: the newest queued one, marked dead.
        set('jobId', await markNewestJobDead(server));
        return { auth: staffAuth() };
      },
    },
    retryJob: { prepare: async () => ({ auth: staffAuth() }) },
    checkLedger: { prepare: async () => ({ auth: staffAuth(), ids: { userId: org.userId } }) },
    sweepPayouts: { prepare: async () => ({ auth: staffAuth() }) },
    listReconciliationOrders: { prepare: async () => ({ auth: staffAuth() }) },
    runReconciliationSweep: { prepare: async () => ({ auth: staffAuth() }) },
    deleteEvent: { prepare: async () => ({ auth: session(), ids: { eventId: freeEventId } }) },
  };

  // ---- the run ------------------------------------------------------------------------

  const operations = () => {
    const out = new Map<string, { method: string; path: string; op: Json }>();
    for (const [path, item] of Object.entries<Json>(doc.paths)) {
      for (const [method, op] of Object.entries<Json>(item))
        if (METHODS.includes(method)) out.set(op.operationId, { method, path, op });
    }
    return out;
  };

  it('every operation has an example: a request body where it takes one, and its success answer', () => {
    const missing: string[] = [];
    for (const [id, { op }] of operations()) {
      if (op.requestBody) {
        const media = Object.values<Json>(op.requestBody.content)[0]!;
        if (media.example === undefined && media.examples === undefined) missing.push(`${id}: request body`);
      }
      const success = Object.entries<Json>(op.responses).filter(([s]) => /^[23]/.test(s));
      const withExample = success.filter(([, r]) =>
        Object.values<Json>(r.content ?? {}).some((m) => m.example !== undefined || m.examples !== undefined),
      );
      // An answer with no body (a redirect, 304) needs none.
      if (withExample.length === 0 && success.some(([, r]) => r.content))
        missing.push(`${id}: success answer`);
      for (const p of op.parameters ?? [])
        if (p.in === 'path' && p.example === undefined) missing.push(`${id}: path parameter ${p.name}`);
    }
    assert.deepEqual(
      missing,
      [],
      'examples missing (each operation keeps its own in its route config.examples)',
    );
  });

  it('every answer example validates against its documented schema', () => {
    const bad: string[] = [];
    for (const [id, { op }] of operations()) {
      for (const [status, response] of Object.entries<Json>(op.responses)) {
        const media = response.content?.['application/json'];
        if (!media?.schema) continue;
        const examples =
          media.example !== undefined
            ? [['example', media.example]]
            : Object.entries<Json>(media.examples ?? {}).map(([n, e]) => [n, e.value]);
        const validate = validator(media.schema);
        for (const [name, value] of examples) {
          if (!validate(value)) bad.push(`${id} ${status} ${name}: ${ajv.errorsText(validate.errors)}`);
        }
      }
      const body = op.requestBody?.content?.['application/json'];
      if (body?.schema) {
        const validate = validator(body.schema);
        const examples =
          body.example !== undefined
            ? [['example', body.example]]
            : Object.entries<Json>(body.examples ?? {}).map(([n, e]) => [n, e.value]);
        for (const [name, value] of examples)
          if (!validate(value)) bad.push(`${id} request ${name}: ${ajv.errorsText(validate.errors)}`);
      }
    }
    assert.deepEqual(bad, []);
  });

  it('sends every request example and gets the documented answer, valid against its schema', async () => {
    const ops = operations();
    const problems: string[] = [];
    const driven = new Set(Object.keys(STEPS).map((k) => k.split('#')[0]!));
    const undriven = [...ops.keys()].filter((id) => !driven.has(id) && !(id in NOT_DRIVEN));
    assert.deepEqual(
      undriven,
      [],
      'operations the examples test does not drive: add a step (or, with a reason, to NOT_DRIVEN)',
    );
    for (const [key, step] of Object.entries(STEPS)) {
      // `operationId#name` sends only the request example of that name.
      const [id, only] = key.split('#') as [string, string | undefined];
      const entry = ops.get(id);
      if (!entry) {
        problems.push(`${id}: not in the document`);
        continue;
      }
      if (id in NOT_DRIVEN) continue;
      const { method, path, op } = entry;
      let particular: Call;
      try {
        particular = (await step.prepare?.()) ?? {};
      } catch (e) {
        problems.push(`${id}: setting up failed: ${(e as Error).message}`);
        continue;
      }
      const ids = new Map(real);
      for (const [k, v] of Object.entries(particular.ids ?? {})) ids.set(k, v!);
      // The request: path and query parameters from their examples, the body from the example(s).
      let url = path;
      const query = new URLSearchParams();
      for (const p of op.parameters ?? []) {
        if (p.example === undefined) continue;
        const value = String(swap(p.example, ids));
        if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(value));
        else if (p.in === 'query') query.set(p.name, value);
      }
      if (query.size > 0) url += `?${query}`;
      const media = op.requestBody ? Object.entries<Json>(op.requestBody.content)[0]! : undefined;
      const requests: [string, unknown][] = !media
        ? [['default', undefined]]
        : media[1].example !== undefined
          ? [['default', media[1].example]]
          : Object.entries<Json>(media[1].examples ?? {}).map(([n, e]) => [n, e.value]);
      for (const [name, example] of requests.filter(([n]) => only === undefined || n === only)) {
        const headers: Record<string, string> = {};
        const auth: Auth =
          particular.auth ??
          (op['x-auth'].kind === 'key' || op['x-auth'].kind === 'door' ? { key: org.key } : { none: true });
        if ('key' in auth) headers['x-api-key'] = auth.key;
        if ('token' in auth) headers.authorization = `Bearer ${auth.token}`;
        if ('door' in auth) headers.authorization = `DoorPass ${auth.door}`;
        let body: string | undefined;
        if (media) {
          const value = swap(example, ids) as Record<string, string>;
          body =
            media[0] === 'application/x-www-form-urlencoded'
              ? new URLSearchParams(value).toString()
              : JSON.stringify(value);
          headers['content-type'] = media[0];
        }
        Object.assign(headers, particular.headers?.(body ?? '') ?? {});
        const res = await fetch(server.url + url, {
          method: method.toUpperCase(),
          headers,
          body,
          redirect: 'manual',
        });
        const text = await res.text();
        const where = `${id}${requests.length > 1 ? ` (${name})` : ''}: ${method.toUpperCase()} ${url} → ${res.status}`;
        // The status the example documents: the answer example of the same name, else the first success with an example.
        const documented = Object.entries<Json>(op.responses).filter(([, r]) =>
          Object.values<Json>(r.content ?? {}).some(
            (m) => m.example !== undefined || m.examples?.[name] !== undefined,
          ),
        );
        const expected =
          particular.expect ??
          Number(
            documented.find(([, r]) =>
              Object.values<Json>(r.content ?? {}).some((m) => m.examples?.[name] !== undefined),
            )?.[0] ??
              documented.find(([s]) => /^[23]/.test(s))?.[0] ??
              Object.keys(op.responses).find((s) => /^[23]/.test(s)),
          );
        // Recording answers for the table: any success of an operation that has none yet.
        const recording =
          process.env.EXAMPLES_RECORD !== undefined && documented.length === 0 && res.status < 400;
        if (res.status !== expected && !recording) {
          problems.push(`${where}, the example documents ${expected}: ${text.slice(0, 300)}`);
          continue;
        }
        const response = op.responses[String(res.status)];
        const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
        const schema = response.content?.[type]?.schema;
        if (response.content && !response.content[type]) {
          problems.push(
            `${where}: content-type ${type} is not documented (${Object.keys(response.content).join(', ')})`,
          );
          continue;
        }
        let parsed: unknown = text;
        if (type === 'application/json') {
          parsed = JSON.parse(text);
          if (schema) {
            const validate = validator(schema);
            if (!validate(parsed))
              problems.push(
                `${where}: the answer does not match its schema: ${ajv.errorsText(validate.errors)}: ${text.slice(0, 300)}`,
              );
          }
        }
        // A CSV answer: a download (Content-Disposition), with the header row of its example.
        if (type === 'text/csv' && !recording) {
          const headerRow = (t: string) => t.replace(/^\uFEFF/, '').split(/\r?\n/)[0];
          const example = response.content[type].example;
          if (!/^attachment; filename=".+\.csv"$/.test(res.headers.get('content-disposition') ?? ''))
            problems.push(`${where}: no Content-Disposition attachment`);
          if (typeof example !== 'string') problems.push(`${where}: the CSV answer has no example text`);
          else if (headerRow(text) !== headerRow(example))
            problems.push(`${where}: the header row is not the example's: ${headerRow(text)}`);
        }
        if (process.env.EXAMPLES_RECORD)
          recorded[`${id} ${res.status}${requests.length > 1 ? ` ${name}` : ''}`] = {
            type,
            body: type === 'application/json' ? unswap(parsed) : unswap(text.slice(0, 1000)),
          };
        try {
          await step.read?.(parsed, name);
        } catch (e) {
          problems.push(`${where}: reading the answer failed: ${(e as Error).message}`);
        }
      }
    }
    if (process.env.EXAMPLES_RECORD)
      writeFileSync(process.env.EXAMPLES_RECORD, JSON.stringify(recorded, null, 2));
    assert.deepEqual(problems, []);
  });
});
