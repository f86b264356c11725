// The organiser dashboard: server-rendered pages under /dashboard. Every rule is the
// services' own; these handlers read forms, call the same service functions as the
// JSON API, and render. Pages are hidden from the OpenAPI document (they are not API).
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { describeError } from '../../shared/error-handler.js';
import type { Mode } from '../../db/database.js';
import type { Deps } from '../../deps.js';
import { sessionPrincipal, type AuthRule, type KeyPrincipal, type SessionPrincipal } from '../../shared/auth.js';
import { AppError, badRequest, forbidden, notFound } from '../../shared/errors.js';
import * as accounts from '../accounts/accounts.service.js';
import { broadcast } from '../broadcast/broadcast.service.js';
import * as events from '../events/events.service.js';
import * as keys from '../keys/keys.service.js';
import * as ledger from '../ledger/ledger.service.js';
import * as memberships from '../memberships/memberships.service.js';
import * as plans from '../memberships/plans.service.js';
import * as payouts from '../payouts/payouts.service.js';
import { UPI_ID_MAX } from '../payouts/upi.js';
import { paiseToRupees } from '../../shared/money.js';
import { nowFor } from '../sandbox/sandbox.service.js';
import * as actions from '../registrations/actions.service.js';
import * as promos from '../registrations/promo.service.js';
import { presentRegistration } from '../registrations/registrations.routes.js';
import * as registrations from '../registrations/registrations.service.js';
import * as webhooks from '../webhooks/webhooks.service.js';
import { ASSETS } from './assets.js';
import { Html } from './html.js';
import { barChart, dailyBars, slotBars } from './charts.js';
import { Form, parseForm, type FormBody } from './form.js';
import { layout, rupees, when, type Section, type Viewer } from './layout.js';
import * as sessions from './sessions.js';
import { errorPage, loginPage, signupPage, verifyPage } from './views/account.js';
import * as eventViews from './views/events.js';
import { ledgerPage, moneyPage } from './views/money.js';
import { developersPage, membershipsPage, staffPage } from './views/settings.js';

/** Sign-in attempts per account per minute window, on top of the per-address limit every public route has. */
export const LOGIN_ATTEMPTS_PER_MINUTE = 10;
const FORM_BODY_LIMIT = 256 * 1024;
const PAGE_SIZE = 50;

const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

const PAGE: { config: { auth: AuthRule }; schema: { hide: true } } = { config: { auth: { kind: 'cookie' } }, schema: { hide: true } };
const STAFF_PAGE: typeof PAGE = { config: { auth: { kind: 'cookie', staff: true } }, schema: { hide: true } };
const PUBLIC_PAGE: typeof PAGE = { config: { auth: { kind: 'public' } }, schema: { hide: true } };

type IdParams = { Params: { id: string } };
type RegParams = { Params: { id: string; rid: string } };

export const dashboardRoutes =
  (deps: Deps): FastifyPluginAsync =>
  async (app) => {
    const secret = deps.config.sessionSecret;

    // Forms post urlencoded bodies; only the dashboard accepts them.
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, (_req, body, done) => {
      done(null, parseForm(body as string));
    });

    app.addHook('onSend', async (req, reply, payload) => {
      reply
        .header('content-security-policy', CSP)
        .header('x-frame-options', 'DENY')
        .header('x-content-type-options', 'nosniff')
        .header('referrer-policy', 'same-origin')
        .header('cross-origin-opener-policy', 'same-origin');
      if (!req.url.startsWith('/dashboard/assets/')) reply.header('cache-control', 'no-store');
      return payload;
    });

    // CSRF: a state-changing request must come from our own pages (Origin and
    // Sec-Fetch-Site when the browser sends them) and carry the form token bound to
    // this session, or before sign-in to the pre-session cookie.
    app.addHook('preHandler', async (req) => {
      if (req.method !== 'POST') return;
      const site = req.headers['sec-fetch-site'];
      const origin = req.headers.origin;
      const own = new Set([`${req.protocol}://${req.host}`, new URL(deps.config.baseUrl).origin]);
      const crossSite = (typeof site === 'string' && site !== 'same-origin' && site !== 'none') || (typeof origin === 'string' && !own.has(origin));
      const body = (req.body ?? {}) as FormBody;
      const binding = req.principal?.kind === 'session' ? req.principal.sessionId : sessions.parseCookies(req.headers.cookie).get(sessions.PRE_SESSION_COOKIE);
      if (crossSite || !sessions.csrfValid(secret, binding, body._csrf)) {
        throw forbidden('csrf_refused', 'This form came from another site or has expired. Reload the page and try again.');
      }
    });

    app.setErrorHandler(async (err: FastifyError | Error, req, reply) => {
      // Forms: an oversized or non-form body reads as the form's own refusal.
      const fe = err as FastifyError;
      const e = describeError(err) ?? { status: 500, code: 'internal' as const, message: 'internal error', headers: {} };
      if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') e.message = 'the form is too large';
      if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') e.message = 'forms must be sent as application/x-www-form-urlencoded';
      // The services point API callers at POST /auth/verify/resend; a person here has a button for it.
      if (e.code === 'email_unverified') e.message = `${e.message.split(':')[0]}: open the link in the verification mail, or use “Send the mail again” on this page`;
      for (const [h, v] of Object.entries(e.headers)) reply.header(h, v);
      if (e.status === 401) return reply.redirect(`/dashboard/login?next=${encodeURIComponent(pathOf(req))}`, 303);
      if (e.status >= 500) req.log.error({ err, reqId: req.id }, 'dashboard error');
      const sessionId = req.principal?.kind === 'session' ? req.principal.sessionId : undefined;
      // A refused action goes back to the page it came from, which shows why.
      if (req.method === 'POST' && sessionId !== undefined && e.status < 500 && e.code !== 'csrf_refused') {
        await sessions.setFlash(deps.db, sessionId, { kind: 'error', text: sentence(e.message) });
        return reply.redirect(backTo(req) ?? '/dashboard/events', 303);
      }
      return reply
        .code(e.status)
        .type('text/html; charset=utf-8')
        .send(errorPage(e.status, e.status >= 500 ? 'Something went wrong on our side. Please try again.' : sentence(e.message), backTo(req)));
    });

    // ------------------------------------------------------------ helpers

    async function viewer(req: FastifyRequest): Promise<Viewer & { s: SessionPrincipal; org: KeyPrincipal }> {
      const s = sessionPrincipal(req);
      const mode: Mode = sessions.parseCookies(req.headers.cookie).get(sessions.MODE_COOKIE) === 'live' ? 'live' : 'test';
      return {
        s,
        // The services take the caller as a principal: the signed-in organiser acts
        // as their own full key in the mode the dashboard shows.
        org: { kind: 'key', userId: s.userId, keyId: 'dashboard', mode, keyClass: 'full' },
        email: s.email,
        isStaff: s.isStaff,
        emailVerified: s.emailVerified,
        mode,
        csrf: sessions.csrfToken(secret, s.sessionId!),
        flash: await sessions.takeFlash(deps.db, s.sessionId!),
      };
    }

    const html = (reply: FastifyReply, body: string, status = 200) => reply.code(status).type('text/html; charset=utf-8').send(body);
    /** A full page; `build` may name the page after what it shows (an event's title). */
    const show = async (
      req: FastifyRequest,
      reply: FastifyReply,
      section: Section,
      title: string,
      build: (v: Awaited<ReturnType<typeof viewer>>) => Promise<Html | Titled> | Html | Titled,
    ) => {
      const v = await viewer(req);
      const built = await build(v);
      return built instanceof Html ? html(reply, layout(v, section, title, built)) : html(reply, layout(v, section, built.title, built.body));
    };
    const done = async (req: FastifyRequest, reply: FastifyReply, to: string, text: string, extra: { secret?: string; progress?: { done: number; failed: number; total: number } } = {}) => {
      await sessions.setFlash(deps.db, sessionPrincipal(req).sessionId!, { kind: extra.secret !== undefined ? 'secret' : 'ok', text, ...extra });
      return reply.redirect(to, 303);
    };
    const form = (req: FastifyRequest) => new Form((req.body ?? {}) as FormBody);
    const org = (req: FastifyRequest): KeyPrincipal => {
      const s = sessionPrincipal(req);
      const mode: Mode = sessions.parseCookies(req.headers.cookie).get(sessions.MODE_COOKIE) === 'live' ? 'live' : 'test';
      return { kind: 'key', userId: s.userId, keyId: 'dashboard', mode, keyClass: 'full' };
    };
    const presentEvent = async (row: events.EventRow) => events.presentEvent(row, await events.usageFor(deps.db, row.id));
    const eventPath = (id: string, rest = '') => `/dashboard/events/${encodeURIComponent(id)}${rest}`;

    function preSession(req: FastifyRequest, reply: FastifyReply): string {
      let value = sessions.parseCookies(req.headers.cookie).get(sessions.PRE_SESSION_COOKIE);
      if (value === undefined || !/^[A-Za-z0-9_-]{24}$/.test(value)) {
        value = sessions.newPreSessionValue();
        reply.header('set-cookie', sessions.cookie(sessions.PRE_SESSION_COOKIE, value, 60 * 60));
      }
      return sessions.csrfToken(secret, value);
    }

    async function signIn(reply: FastifyReply, userId: string, next: string) {
      await sessions.sweepExpired(deps, userId);
      const { token, maxAgeSeconds } = await sessions.startSession(deps, userId);
      reply.header('set-cookie', [sessions.cookie(sessions.SESSION_COOKIE, token, maxAgeSeconds), sessions.clearCookie(sessions.PRE_SESSION_COOKIE)]);
      return reply.redirect(next, 303);
    }

    // ------------------------------------------------------------ assets

    for (const asset of ASSETS) {
      app.get(`/dashboard/assets/${asset.name}`, { config: { auth: { kind: 'public', rateLimit: false } }, schema: { hide: true } }, async (req, reply) => {
        reply.header('etag', asset.etag).header('cache-control', 'public, max-age=31536000, immutable');
        if (req.headers['if-none-match'] === asset.etag) return reply.code(304).send();
        return reply.type(asset.type).send(asset.body);
      });
    }

    // ------------------------------------------------------------ signing in and out

    app.get('/dashboard', PUBLIC_PAGE, async (req, reply) => {
      const s = await sessions.findSession(deps, req.headers.cookie);
      return reply.redirect(s ? '/dashboard/events' : '/dashboard/login', 303);
    });

    app.get<{ Querystring: { next?: string } }>('/dashboard/login', PUBLIC_PAGE, async (req, reply) => {
      const next = safeNext(req.query.next);
      return html(reply, loginPage(preSession(req, reply), { email: '', next, error: null }));
    });

    app.post('/dashboard/login', PUBLIC_PAGE, async (req, reply) => {
      const f = form(req);
      const email = f.text('email', 'Email', 254);
      const password = f.text('password', 'Password', 1024);
      const next = safeNext(f.text('next', 'next', 500));
      const csrf = preSession(req, reply);
      // The same sign-in as POST /auth/login, with its limits per account and per address.
      let userId: string;
      try {
        ({ userId } = await accounts.login(deps, { email, password }, req.ip));
      } catch (err) {
        if (err instanceof AppError && err.code === 'too_many_attempts') {
          for (const [h, v] of Object.entries(err.headers)) reply.header(h, v);
          return html(reply, loginPage(csrf, { email, next, error: `Too many sign-in attempts. Try again in ${err.headers['retry-after'] ?? 'a few'} seconds.` }), 429);
        }
        if (err instanceof AppError && err.status < 500) return html(reply, loginPage(csrf, { email, next, error: 'Email or password is wrong.' }), err.status);
        throw err;
      }
      return signIn(reply, userId, next);
    });

    app.get('/dashboard/signup', PUBLIC_PAGE, async (req, reply) => html(reply, signupPage(preSession(req, reply), { email: '', name: '', phone: '', error: null })));

    app.post('/dashboard/signup', PUBLIC_PAGE, async (req, reply) => {
      const f = form(req);
      const v = { email: f.text('email', 'Email', 254), name: f.text('name', 'Name', 200), phone: f.text('phone', 'Phone', 32) };
      const password = f.text('password', 'Password', 1024);
      let userId: string;
      try {
        ({ userId } = await accounts.signup(deps, { ...v, password, ...(v.phone ? { phone: v.phone } : {}) }));
      } catch (err) {
        if (err instanceof AppError && err.status < 500) return html(reply, signupPage(preSession(req, reply), { ...v, error: sentence(err.message) }), err.status);
        throw err;
      }
      // The verification mail is on its way (a job committed with the account): say so first.
      return signIn(reply, userId, '/dashboard/verify');
    });

    // ------------------------------------------------------------ email verification

    app.get('/dashboard/verify', PAGE, async (req, reply) =>
      show(req, reply, 'account', 'Verify your email address', (v) => verifyPage(v.csrf, { email: v.email, verified: v.emailVerified })),
    );

    app.post('/dashboard/verify/resend', PAGE, async (req, reply) => {
      const s = sessionPrincipal(req);
      // The same function, and so the same hourly limit, as POST /auth/verify/resend.
      await accounts.resendVerification(deps, s.userId);
      return done(req, reply, backTo(req) ?? '/dashboard/verify', `A new verification mail is on its way to ${s.email}. Open the link in it.`);
    });

    app.post('/dashboard/logout', PAGE, async (req, reply) => {
      await sessions.endSession(deps.db, sessionPrincipal(req).sessionId!);
      reply.header('set-cookie', sessions.clearCookie(sessions.SESSION_COOKIE));
      return html(reply, loginPage(preSession(req, reply), { email: '', next: '/dashboard/events', error: null, notice: 'You are signed out.' }));
    });

    app.post('/dashboard/mode', PAGE, async (req, reply) => {
      const mode = form(req).text('mode', 'Mode', 10);
      if (mode !== 'test' && mode !== 'live') throw badRequest('invalid_mode', 'mode must be test or live');
      reply.header('set-cookie', sessions.cookie(sessions.MODE_COOKIE, mode, 365 * 86400));
      // Objects belong to one mode: an event page of the other mode would be a 404.
      const back = backTo(req) ?? '/dashboard/events';
      return reply.redirect(back.startsWith('/dashboard/events/') ? '/dashboard/events' : back, 303);
    });

    // ------------------------------------------------------------ events

    app.get('/dashboard/events', PAGE, async (req, reply) =>
      show(req, reply, 'events', 'Events', async (v) => eventViews.eventsList(await Promise.all((await events.listEvents(deps.db, v.org)).map(presentEvent)))),
    );

    app.get('/dashboard/events/new', PAGE, async (req, reply) =>
      show(req, reply, 'events', 'Create an event', (v) => eventViews.eventForm(v.csrf, '/dashboard/events', null, 'Create draft')),
    );

    app.post('/dashboard/events', PAGE, async (req, reply) => {
      const row = await events.createEvent(deps.eventDeps, org(req), eventInput(form(req), true));
      return done(req, reply, eventPath(row.id), 'Draft created. Add tracks, tiers and questions under Setup, then publish.');
    });

    app.get<IdParams>('/dashboard/events/:id', PAGE, async (req, reply) =>
      show(req, reply, 'events', 'Event', async (v) => {
        const row = await events.loadOwnedEvent(deps.db, v.org, req.params.id);
        const [event, availability, analytics, door, sales, arrivals, user] = await Promise.all([
          presentEvent(row),
          events.availability(deps.eventDeps, row),
          events.analytics(deps.eventDeps, row),
          registrations.doorProgress(deps.db, row.id),
          registrations.salesOverTime(deps.db, row.id),
          registrations.arrivalsPer15Minutes(deps.db, row.id),
          accounts.getUser(deps.db, v.s.userId),
        ]);
        const page = eventViews.overview(v.csrf, {
          event,
          availability,
          analytics,
          door,
          salesChart: barChart('sales', 'Tickets sold per day', dailyBars(sales), 'tickets'),
          arrivalsChart: barChart('arrivals', 'Check-in arrivals per 15 minutes', slotBars(arrivals), 'people'),
          canPublish: user.can_publish,
          baseUrl: deps.config.baseUrl,
        });
        return { title: event.title, body: page };
      }),
    );

    app.get<IdParams>('/dashboard/events/:id/door', PAGE, async (req, reply) => {
      const row = await events.loadOwnedEvent(deps.db, org(req), req.params.id);
      return html(reply, eventViews.doorFragment(await registrations.doorProgress(deps.db, row.id)).value);
    });

    app.get<IdParams>('/dashboard/events/:id/setup', PAGE, async (req, reply) =>
      show(req, reply, 'events', 'Event setup', async (v) => {
        const row = await events.loadOwnedEvent(deps.db, v.org, req.params.id);
        const event = await presentEvent(row);
        return { title: event.title, body: eventViews.setup(v.csrf, event, (await promos.listPromos(deps.db, row.id)).map(promos.presentPromo)) };
      }),
    );

    app.post<IdParams>('/dashboard/events/:id', PAGE, async (req, reply) => {
      await events.patchEvent(deps.eventDeps, org(req), req.params.id, eventInput(form(req), false));
      return done(req, reply, eventPath(req.params.id, '/setup'), 'Saved.');
    });

    app.post<IdParams>('/dashboard/events/:id/publish', PAGE, async (req, reply) => {
      const status = form(req).text('status', 'Status', 20);
      if (status !== 'published' && status !== 'draft') throw badRequest('invalid_status', 'status must be published or draft');
      await events.patchEvent(deps.eventDeps, org(req), req.params.id, { status });
      return done(req, reply, eventPath(req.params.id), status === 'published' ? 'Published.' : 'Back to draft: the event is off sale.');
    });

    app.post<IdParams>('/dashboard/events/:id/delete', PAGE, async (req, reply) => {
      const p = org(req);
      await events.loadOwnedEvent(deps.db, p, req.params.id);
      await events.deleteEvent(deps.eventDeps, sessionPrincipal(req), req.params.id, false);
      return done(req, reply, '/dashboard/events', 'Event deleted.');
    });

    app.post<IdParams>('/dashboard/events/:id/tracks', PAGE, async (req, reply) => {
      const f = form(req);
      await events.addTrack(deps.eventDeps, org(req), req.params.id, { title: f.text('title', 'Title', 200), price: f.number('price', 'Price', 0), capacity: f.integer('capacity', 'Capacity', 0) });
      return done(req, reply, eventPath(req.params.id, '/setup'), 'Track added.');
    });

    app.post<{ Params: { id: string; index: string } }>('/dashboard/events/:id/tracks/:index', PAGE, async (req, reply) => {
      const f = form(req);
      await events.patchTrack(deps.eventDeps, org(req), req.params.id, events.parseTrackIndex(req.params.index), {
        title: f.text('title', 'Title', 200),
        price: f.number('price', 'Price', 0),
        capacity: f.integer('capacity', 'Capacity', 0),
      });
      return done(req, reply, eventPath(req.params.id, '/setup'), `Track ${req.params.index} saved.`);
    });

    app.post<IdParams>('/dashboard/events/:id/tiers', PAGE, async (req, reply) => {
      const f = form(req);
      const p = org(req);
      const event = await presentEvent(await events.loadOwnedEvent(deps.db, p, req.params.id));
      const tier = { name: f.required('name', 'Tier name', 80), price: f.number('price', 'Price'), capacity: f.integer('capacity', 'Capacity', 0), membersOnly: f.checked('membersOnly') };
      await events.patchEvent(deps.eventDeps, p, req.params.id, { specialPrices: [...event.specialPrices, tier] });
      return done(req, reply, eventPath(req.params.id, '/setup'), `Tier ${tier.name} added.`);
    });

    app.post<IdParams>('/dashboard/events/:id/tiers/remove', PAGE, async (req, reply) => {
      const name = form(req).required('name', 'Tier name', 80);
      const p = org(req);
      const event = await presentEvent(await events.loadOwnedEvent(deps.db, p, req.params.id));
      await events.patchEvent(deps.eventDeps, p, req.params.id, { specialPrices: event.specialPrices.filter((t) => t.name !== name) });
      return done(req, reply, eventPath(req.params.id, '/setup'), `Tier ${name} removed.`);
    });

    app.post<IdParams>('/dashboard/events/:id/questions', PAGE, async (req, reply) => {
      const f = form(req);
      const p = org(req);
      const event = await presentEvent(await events.loadOwnedEvent(deps.db, p, req.params.id));
      const type = f.text('type', 'Type', 20) || 'text';
      if (!['text', 'number', 'email', 'select', 'checkbox'].includes(type)) throw badRequest('invalid_custom_field', 'type must be text, number, email, select or checkbox');
      const options = f
        .text('options', 'Options', 5000)
        .split(/\r?\n/)
        .map((o) => o.trim())
        .filter((o) => o !== '');
      const field = {
        name: f.required('name', 'Field name', 50),
        label: f.text('label', 'Question', 200) || f.text('name', 'Field name', 50),
        type: type as 'text',
        required: f.checked('required'),
        ...(type === 'select' ? { options } : {}),
      };
      await events.patchEvent(deps.eventDeps, p, req.params.id, { customFields: [...event.customFields.map(customFieldInput), field] });
      return done(req, reply, eventPath(req.params.id, '/setup'), 'Question added.');
    });

    app.post<IdParams>('/dashboard/events/:id/questions/remove', PAGE, async (req, reply) => {
      const name = form(req).required('name', 'Field name', 50);
      const p = org(req);
      const event = await presentEvent(await events.loadOwnedEvent(deps.db, p, req.params.id));
      await events.patchEvent(deps.eventDeps, p, req.params.id, { customFields: event.customFields.filter((c) => c.name !== name).map(customFieldInput) });
      return done(req, reply, eventPath(req.params.id, '/setup'), 'Question removed.');
    });

    app.post<IdParams>('/dashboard/events/:id/promo-codes', PAGE, async (req, reply) => {
      const f = form(req);
      const row = await events.loadOwnedEvent(deps.db, org(req), req.params.id);
      const value = f.number('value', 'Discount');
      const maxUses = f.optional('maxUses', 'Most uses', 12);
      const validFrom = f.instant('validFrom', 'Valid from');
      const validUntil = f.instant('validUntil', 'Valid until');
      const percent = f.text('kind', 'Kind', 10) !== 'amount';
      if (percent && (!Number.isInteger(value) || value < 1 || value > 100)) throw badRequest('invalid_promo_code', 'a percentage discount must be a whole number from 1 to 100');
      const created = await promos.createPromo(deps, row.id, {
        code: f.required('code', 'Code', 40),
        ...(percent ? { discountPercent: value } : { discountAmount: value }),
        ...(maxUses !== undefined ? { maxUses: f.integer('maxUses', 'Most uses') } : {}),
        ...(validFrom !== undefined ? { validFrom } : {}),
        ...(validUntil !== undefined ? { validUntil } : {}),
      });
      return done(req, reply, eventPath(req.params.id, '/setup'), `Promo code ${created.code} added.`);
    });

    // ------------------------------------------------------------ registrations

    app.get<IdParams & { Querystring: { q?: string; status?: string; after?: string } }>('/dashboard/events/:id/registrations', PAGE, async (req, reply) =>
      show(req, reply, 'events', 'Registrations', async (v) => {
        const row = await events.loadOwnedEvent(deps.db, v.org, req.params.id);
        const q = (req.query.q ?? '').slice(0, 200);
        const status = ['pending', 'confirmed', 'cancelled', 'refunded'].includes(req.query.status ?? '') ? (req.query.status as 'pending') : undefined;
        const after = decodeCursor(req.query.after);
        const rows = await registrations.searchRegistrations(deps.db, row.id, { q, status, limit: PAGE_SIZE, after });
        const pageRows = rows.slice(0, PAGE_SIZE);
        const attendees = await registrations.attendeesOf(deps.db, pageRows.map((r) => r.id));
        const last = pageRows[pageRows.length - 1];
        const event = await presentEvent(row);
        const page = eventViews.registrationsPage(
          event,
          pageRows.map((r) => presentRegistration(r, attendees.get(r.id) ?? [])),
          { q, status: status ?? '' },
          { next: rows.length > PAGE_SIZE && last ? encodeCursor(last.created_at, last.id) : null, first: after === undefined },
        );
        return { title: `${event.title}: registrations`, body: page };
      }),
    );

    app.get<RegParams>('/dashboard/events/:id/registrations/:rid', PAGE, async (req, reply) =>
      show(req, reply, 'events', 'Registration', async (v) => {
        const reg = await actions.loadOwnedRegistration(deps.db, v.org, req.params.id, req.params.rid);
        const event = await presentEvent((await events.findEvent(deps.db, reg.event_id))!);
        const attendees = (await registrations.attendeesOf(deps.db, [reg.id])).get(reg.id) ?? [];
        return { title: `${event.title}: registration`, body: eventViews.registrationDetail(v.csrf, event, presentRegistration(reg, attendees)) };
      }),
    );

    const ACTIONS: Record<string, { run: (p: KeyPrincipal, e: string, r: string) => Promise<unknown>; said: string }> = {
      approve: { run: (p, e, r) => actions.approve(deps.registerDeps, p, e, r), said: 'Approved.' },
      reject: { run: (p, e, r) => actions.reject(deps.registerDeps, p, e, r), said: 'Rejected.' },
      cancel: { run: (p, e, r) => actions.end(deps.registerDeps, p, e, r, 'cancelled'), said: 'Cancelled; a paid booking was refunded in full.' },
      refund: { run: (p, e, r) => actions.end(deps.registerDeps, p, e, r, 'refunded'), said: 'Refunded in full; the seats are free again.' },
    };

    app.post<RegParams & { Params: { action: string } }>('/dashboard/events/:id/registrations/:rid/:action', PAGE, async (req, reply) => {
      const path = eventPath(req.params.id, `/registrations/${encodeURIComponent(req.params.rid)}`);
      if (req.params.action === 'transfer') {
        const f = form(req);
        await actions.transfer(deps.registerDeps, org(req), req.params.id, req.params.rid, { name: f.required('name', 'Name', 200), email: f.required('email', 'Email', 254) });
        return done(req, reply, path, 'Transferred: the new holder gets a fresh ticket and the old QR code is refused at the door.');
      }
      const action = ACTIONS[req.params.action];
      if (!action) throw notFound('no such action', 'not_found');
      await action.run(org(req), req.params.id, req.params.rid);
      return done(req, reply, path, action.said);
    });

    // ------------------------------------------------------------ broadcast

    app.get<IdParams>('/dashboard/events/:id/broadcast', PAGE, async (req, reply) =>
      show(req, reply, 'events', 'Broadcast', async (v) => {
        const event = await presentEvent(await events.loadOwnedEvent(deps.db, v.org, req.params.id));
        return { title: `${event.title}: broadcast`, body: eventViews.broadcastPage(v.csrf, event, { subject: '', message: '', audience: 'confirmed', subEventId: '' }, null) };
      }),
    );

    const broadcastInput = (f: Form) => {
      const audience = f.text('audience', 'Audience', 20) || 'confirmed';
      if (!['confirmed', 'checked_in', 'not_checked_in', 'pending', 'all'].includes(audience)) throw badRequest('invalid_audience', 'unknown audience');
      return { subject: f.required('subject', 'Subject', 200), message: f.required('message', 'Message', 20_000), audience, subEventId: f.text('subEventId', 'Track', 10) };
    };
    const broadcastDeps = { ...deps, maxRecipients: deps.config.broadcastMaxRecipients };

    app.post<IdParams>('/dashboard/events/:id/broadcast', PAGE, async (req, reply) =>
      show(req, reply, 'events', 'Broadcast', async (v) => {
        const row = await events.loadOwnedEvent(deps.db, v.org, req.params.id);
        const input = broadcastInput(form(req));
        const preview = await broadcast(broadcastDeps, row, { ...input, audience: input.audience as 'confirmed', subEventId: input.subEventId || undefined, dryRun: true });
        if (!preview.dryRun) throw new Error('a preview sent mail');
        const event = await presentEvent(row);
        return { title: `${event.title}: broadcast`, body: eventViews.broadcastPage(v.csrf, event, input, preview) };
      }),
    );

    app.post<IdParams>('/dashboard/events/:id/broadcast/send', PAGE, async (req, reply) => {
      const f = form(req);
      const row = await events.loadOwnedEvent(deps.db, org(req), req.params.id);
      const input = broadcastInput(f);
      const r = await broadcast(broadcastDeps, row, {
        ...input,
        audience: input.audience as 'confirmed',
        subEventId: input.subEventId || undefined,
        dryRun: false,
        confirmedRecipientCount: f.integer('confirmedRecipientCount', 'Recipient count'),
      });
      if (r.dryRun) throw new Error('a send answered a preview');
      return done(req, reply, eventPath(req.params.id, '/broadcast'), `Broadcast “${input.subject}” handed to the mail service.`, {
        progress: { done: r.sent, failed: r.failed, total: r.recipientCount },
      });
    });

    // ------------------------------------------------------------ memberships

    app.get<{ Querystring: { planId?: string; email?: string } }>('/dashboard/memberships', PAGE, async (req, reply) =>
      show(req, reply, 'memberships', 'Memberships', async (v) => {
        const filter = { planId: (req.query.planId ?? '').slice(0, 100), email: (req.query.email ?? '').slice(0, 254) };
        const planList = (await plans.listPlans(deps.db, v.org)).map(plans.presentPlan);
        const rows = await memberships.listMembers(deps.db, v.org, { planId: filter.planId || undefined, email: filter.email || undefined });
        const now = await nowFor(deps, v.org.userId, v.org.mode);
        return membershipsPage(v.csrf, planList, rows.map((r) => memberships.presentMembership(r, r.plan_kind, now)), filter);
      }),
    );

    app.post('/dashboard/memberships/plans', PAGE, async (req, reply) => {
      const f = form(req);
      const kind = f.text('kind', 'Kind', 20) === 'recurring' ? 'recurring' : 'fixed_term';
      const period = f.text('period', 'Period', 20);
      if (kind === 'recurring' && !['weekly', 'monthly', 'quarterly', 'yearly'].includes(period)) throw badRequest('invalid_plan', 'period must be weekly, monthly, quarterly or yearly');
      const plan = await plans.createPlan(deps.membershipDeps, org(req), {
        name: f.required('name', 'Name', 80),
        amount: f.number('amount', 'Amount'),
        kind,
        ...(kind === 'fixed_term' ? { termMonths: f.integer('termMonths', 'Term') } : { period: period as 'monthly' }),
        description: f.optional('description', 'Description', 500),
      });
      return done(req, reply, '/dashboard/memberships', `Plan ${plan.name} created.`);
    });

    // ------------------------------------------------------------ money

    // The balance, payouts and ledger of the dashboard's mode, through the same service
    // functions as /dashboard/api/balance, /dashboard/api/payouts and /dashboard/api/ledger.
    app.get<{ Querystring: { after?: string } }>('/dashboard/money', PAGE, async (req, reply) =>
      show(req, reply, 'money', 'Money', async (v) => {
        const [bal, list, emailVerified] = await Promise.all([
          ledger.balance(deps.payoutDeps, deps.db, v.s.userId, v.mode),
          payouts.listPayouts(deps.payoutDeps, v.s.userId, v.mode, PAGE_SIZE, req.query.after),
          accounts.findUser(deps.db, v.s.userId).then((u) => u !== undefined && accounts.isEmailVerified(u)),
        ]);
        return moneyPage(v.csrf, {
          mode: v.mode,
          available: paiseToRupees(bal.availablePaise),
          pending: paiseToRupees(bal.pendingPaise),
          clearingDays: deps.payoutDeps.clearingDays,
          minimumRupees: payouts.MIN_PAYOUT_PAISE / 100,
          payouts: list.items,
          pages: { next: list.nextCursor, first: req.query.after === undefined },
          emailVerified,
          payoutsConfigured: deps.payoutDeps.razorpayx !== undefined,
        });
      }),
    );

    app.get<{ Querystring: { after?: string } }>('/dashboard/money/ledger', PAGE, async (req, reply) =>
      show(req, reply, 'money', 'Money: ledger', async (v) => {
        const page = await ledger.listEntries(deps.payoutDeps, v.s.userId, v.mode, PAGE_SIZE, req.query.after);
        const now = await ledger.ledgerNow(deps.payoutDeps, v.s.userId, v.mode);
        return ledgerPage(v.mode, page.items, now, { next: page.nextCursor, first: req.query.after === undefined });
      }),
    );

    app.post('/dashboard/money/payouts', PAGE, async (req, reply) => {
      const f = form(req);
      const p = org(req);
      const input = { amount: f.number('amount', 'Amount'), upiId: f.required('upiId', 'UPI id', UPI_ID_MAX) };
      let payout: payouts.PayoutRow;
      try {
        payout = await payouts.requestPayout(deps.payoutDeps, p.userId, p.mode, input);
      } catch (err) {
        // A refusal shows on the page, like every form's; "not configured" is one too, not an outage.
        // The service names the JSON field (upiId); the form's label is "UPI id".
        if (err instanceof AppError && (err.code === 'payouts_not_configured' || err.code === 'invalid_upi_id')) {
          await sessions.setFlash(deps.db, sessionPrincipal(req).sessionId!, { kind: 'error', text: sentence(err.message.replace(/^upiId\b/, 'the UPI id')) });
          return reply.redirect('/dashboard/money', 303);
        }
        throw err;
      }
      req.log.info({ payoutId: payout.id, mode: payout.mode, amountPaise: Number(payout.amount_paise) }, 'payout requested');
      const amount = rupees(paiseToRupees(Number(payout.amount_paise)));
      return done(
        req,
        reply,
        '/dashboard/money',
        p.mode === 'test'
          ? `Test withdrawal of ${amount} to ${payout.upi_id} sent to the sandbox payout gateway.`
          : `Withdrawal of ${amount} to ${payout.upi_id} requested; expected by ${when(payout.expected_by)}.`,
      );
    });

    app.post<{ Params: { payoutId: string; outcome: string } }>('/dashboard/money/payouts/:payoutId/:outcome', PAGE, async (req, reply) => {
      const p = org(req);
      const outcome = req.params.outcome;
      // The sandbox payout gateway settles test-mode payouts only; live ones follow RazorpayX.
      if (p.mode !== 'test') throw notFound('only test-mode payouts are settled by hand', 'payout_not_found');
      if (outcome !== 'process' && outcome !== 'fail' && outcome !== 'reverse' && outcome !== 'cancel') throw notFound('no such action', 'not_found');
      const row = await payouts.settleSandboxPayout(deps.payoutDeps, p, req.params.payoutId, outcome);
      return done(req, reply, '/dashboard/money', `Test payout ${row.id} is now ${row.status}${row.utr ? ` (UTR ${row.utr})` : ''}.`);
    });

    // ------------------------------------------------------------ developers

    app.get('/dashboard/developers', PAGE, async (req, reply) =>
      show(req, reply, 'developers', 'Developers', async (v) =>
        developersPage(
          v.csrf,
          v.mode,
          await keys.listKeys(deps.db, v.s.userId),
          await webhooks.getConfig(deps.db, v.s.userId, v.mode),
          await webhooks.listDeliveries(deps.db, v.s.userId, v.mode),
          v.emailVerified,
        ),
      ),
    );

    app.post('/dashboard/developers/keys', PAGE, async (req, reply) => {
      const f = form(req);
      const mode = f.text('mode', 'Mode', 10);
      const keyClass = f.text('class', 'Kind', 10);
      if ((mode !== 'test' && mode !== 'live') || (keyClass !== 'full' && keyClass !== 'checkout')) throw badRequest('invalid_request', 'mode must be test or live, and kind full or checkout');
      const { row, key } = await keys.createKey(deps, sessionPrincipal(req).userId, {
        name: f.optional('name', 'Name', 100),
        mode,
        keyClass,
        allowedOrigin: f.optional('allowedOrigin', 'Allowed origin', 300),
      });
      return done(req, reply, '/dashboard/developers', `Key “${row.name}” created. Copy it now: it is not shown again.`, { secret: key });
    });

    app.post<{ Params: { keyId: string } }>('/dashboard/developers/keys/:keyId/revoke', PAGE, async (req, reply) => {
      const row = await keys.revokeKey(deps, sessionPrincipal(req).userId, req.params.keyId);
      return done(req, reply, '/dashboard/developers', `Key “${row.name}” revoked: calls with it are refused.`);
    });

    app.post('/dashboard/developers/webhook', PAGE, async (req, reply) => {
      const f = form(req);
      const p = org(req);
      const r = await webhooks.putConfig(deps, p.userId, p.mode, { url: f.required('url', 'URL', 2000), enabled: f.checked('enabled'), events: f.all('events').slice(0, 10) });
      return done(req, reply, '/dashboard/developers', r.secret ? 'Webhook set up. Copy the signing secret now: it is not shown again.' : 'Webhook saved.', r.secret ? { secret: r.secret } : {});
    });

    app.post('/dashboard/developers/webhook/rotate', PAGE, async (req, reply) => {
      const p = org(req);
      const current = await webhooks.getConfig(deps.db, p.userId, p.mode);
      if (!current) throw notFound('there is no webhook to rotate', 'webhook_not_found');
      const r = await webhooks.putConfig(deps, p.userId, p.mode, { rotateSecret: true, enabled: current.enabled });
      return done(req, reply, '/dashboard/developers', 'New signing secret made; the old one no longer verifies. Copy it now: it is not shown again.', { secret: r.secret! });
    });

    app.post('/dashboard/developers/webhook/delete', PAGE, async (req, reply) => {
      const p = org(req);
      await webhooks.deleteConfig(deps.db, p.userId, p.mode);
      return done(req, reply, '/dashboard/developers', 'Webhook removed.');
    });

    // ------------------------------------------------------------ staff

    app.get('/dashboard/staff', STAFF_PAGE, async (req, reply) => show(req, reply, 'staff', 'Staff', (v) => staffPage(v.csrf)));

    app.post('/dashboard/staff/organiser-access', STAFF_PAGE, async (req, reply) => {
      const f = form(req);
      const who = f.required('account', 'Account', 254);
      const user = who.includes('@') ? await accounts.findUserByEmail(deps.db, who) : await accounts.findUser(deps.db, who);
      if (!user) throw notFound('no account with that email or id', 'account_not_found');
      const canPublish = f.text('canPublish', 'Publishing', 5) === 'true';
      await accounts.setOrganiserAccess(deps.db, user.id, canPublish);
      req.log.info({ staff: sessionPrincipal(req).userId, userId: user.id, canPublish }, 'organiser access changed');
      return done(req, reply, '/dashboard/staff', `${user.email} ${canPublish ? 'may now publish events' : 'may no longer publish events'}.`);
    });

    app.post('/dashboard/staff/ticket-emails', STAFF_PAGE, async (req, reply) => {
      const f = form(req);
      const r = await events.setTicketEmails(deps.eventDeps, f.required('eventId', 'Event id', 100), f.text('enabled', 'Enabled', 5) === 'true');
      req.log.info({ staff: sessionPrincipal(req).userId, ...r }, 'ticket emails switched');
      return done(req, reply, '/dashboard/staff', `Ticket emails for ${r.eventId} are ${r.ticketEmailsEnabled ? 'on' : 'off'}.`);
    });

    app.post('/dashboard/staff/members', STAFF_PAGE, async (req, reply) => {
      const f = form(req);
      const { membership } = await memberships.addManualMember(deps.membershipDeps, {
        planId: f.required('planId', 'Plan id', 100),
        name: f.required('name', 'Name', 200),
        email: f.required('email', 'Email', 254),
        validUntil: f.required('validUntil', 'Valid until', 40),
      });
      return done(req, reply, '/dashboard/staff', `${membership.email} is a member until ${membership.valid_until?.toISOString().slice(0, 10)}.`);
    });
  };

// ---------------------------------------------------------------- pure helpers

function eventInput(f: Form, creating: boolean): events.EventInput {
  const endDate = f.instant('endDate', 'End');
  return {
    title: f.required('title', 'Title', 200),
    description: f.text('description', 'Description', 20_000),
    startDate: f.instant('startDate', 'Start') ?? (creating ? '' : undefined)!,
    endDate: endDate ?? null,
    location: f.optional('location', 'Location', 500) ?? null,
    capacity: f.integer('capacity', 'Capacity', 0),
    price: f.number('price', 'Price', 0),
    maxTeamSize: Math.max(1, f.integer('maxTeamSize', 'Team size', 1)),
    requiresApproval: f.checked('requiresApproval'),
  };
}

function customFieldInput(c: { name: string; label: string; type: 'text' | 'number' | 'email' | 'select' | 'checkbox'; required: boolean; options: string[] | null }): events.CustomFieldInput {
  return { name: c.name, label: c.label, type: c.type, required: c.required, ...(c.options ? { options: c.options } : {}) };
}


const sentence = (message: string) => message.charAt(0).toUpperCase() + message.slice(1) + (/[.!?]$/.test(message) ? '' : '.');

function pathOf(req: FastifyRequest): string {
  return req.method === 'GET' ? req.url : '/dashboard/events';
}

/** Only our own dashboard paths: never an open redirect. */
export function safeNext(next: string | undefined): string {
  return typeof next === 'string' && /^\/dashboard(\/[^\\]*)?$/.test(next) && !next.startsWith('//') ? next : '/dashboard/events';
}

function backTo(req: FastifyRequest): string | null {
  const ref = req.headers.referer;
  if (typeof ref !== 'string') return null;
  try {
    const u = new URL(ref);
    if (u.host !== req.host) return null;
    const path = u.pathname + u.search;
    return safeNext(path) === path ? path : null;
  } catch {
    return null;
  }
}

interface Titled {
  title: string;
  body: Html;
}

function encodeCursor(createdAt: Date, id: string): string {
  return Buffer.from(`${createdAt.toISOString()}|${id}`).toString('base64url');
}

function decodeCursor(cursor: string | undefined): { createdAt: Date; id: string } | undefined {
  if (!cursor || cursor.length > 300) return undefined;
  const [at, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  const createdAt = new Date(at ?? '');
  return id && !Number.isNaN(createdAt.getTime()) ? { createdAt, id } : undefined;
}
