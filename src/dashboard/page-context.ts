// What the dashboard's page routes share: the signed-in viewer, rendering a page,
// redirecting with a flash, reading the form, and the pure helpers the error handler
// uses too. One context per dashboard plugin, made by `pageContext(deps)`.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DashboardFlash, Mode } from '../db/database.js';
import type { DashboardDeps } from './dashboard-deps.js';
import { sessionPrincipal, type AuthRule, type KeyPrincipal, type SessionPrincipal } from '../http/auth.js';
import * as present from '../modules/events/events.present.js';
import * as events from '../modules/events/events.service.js';
import * as members from '../modules/accounts/members.service.js';
import { Html } from './html.js';
import { Form, type FormBody } from './form.js';
import { layout, type Section, type Viewer } from './layout.js';
import * as sessions from './sessions.js';

export const PAGE_SIZE = 50;

export const PAGE: { config: { auth: AuthRule }; schema: { hide: true } } = {
  config: { auth: { kind: 'cookie' } },
  schema: { hide: true },
};
export const STAFF_PAGE: typeof PAGE = {
  config: { auth: { kind: 'cookie', staff: true } },
  schema: { hide: true },
};
export const PUBLIC_PAGE: typeof PAGE = { config: { auth: { kind: 'public' } }, schema: { hide: true } };

export type IdParams = { Params: { id: string } };
export type RegParams = { Params: { id: string; rid: string } };

export type PageViewer = Viewer & { s: SessionPrincipal; org: KeyPrincipal };
export type PageContext = ReturnType<typeof pageContext>;

/**
 * The mode the dashboard shows and acts in: live only for a verified account, as the API
 * gives live keys only to one. An unverified account's live cookie (set by hand) reads as test.
 */
export function modeOf(req: FastifyRequest, s: SessionPrincipal): Mode {
  return s.emailVerified && sessions.parseCookies(req.headers.cookie).get(sessions.MODE_COOKIE) === 'live'
    ? 'live'
    : 'test';
}

export function pageContext(deps: DashboardDeps) {
  const secret = deps.config.sessionSecret;

  async function viewer(req: FastifyRequest): Promise<PageViewer> {
    const s = sessionPrincipal(req);
    const mode = modeOf(req, s);
    return {
      s,
      // The services take the caller as a principal: the signed-in organiser acts
      // as their own full key in the mode the dashboard shows.
      org: {
        kind: 'key',
        userId: s.userId,
        keyId: 'dashboard',
        mode,
        keyClass: 'full',
        personId: s.personId,
      },
      email: s.email,
      isStaff: s.isStaff,
      emailVerified: s.emailVerified,
      member: s.role === undefined ? undefined : { role: s.role, eventIds: s.eventIds ?? null },
      organisations: (await members.listOrganisationsOf(deps.db, s.personId)).map((o) => ({
        id: o.organisation_id,
        name: o.org_name ?? o.name,
        role: o.role,
      })),
      organisationId: s.userId,
      mode,
      csrf: sessions.csrfToken(secret, s.sessionId!),
      // Taken by `show` once the page is known to render: a refused page view (404, 403)
      // writes nothing and leaves the message for the page that does render.
      flash: null,
    };
  }

  const html = (reply: FastifyReply, body: string, status = 200) =>
    reply.code(status).type('text/html; charset=utf-8').send(body);
  /**
   * A full page; `build` may name the page after what it shows (an event's title).
   * `shown` is a message for this answer only — a secret shown once goes here, never
   * into the stored flash.
   */
  const show = async (
    req: FastifyRequest,
    reply: FastifyReply,
    section: Section,
    title: string,
    build: (v: Awaited<ReturnType<typeof viewer>>) => Promise<Html | Titled> | Html | Titled,
    shown?: DashboardFlash,
  ) => {
    const v = await viewer(req);
    const built = await build(v);
    // A message for this answer only leaves the stored one for the next page.
    v.flash = shown ?? (await sessions.takeFlash(deps.db, v.s.sessionId!));
    return built instanceof Html
      ? html(reply, layout(v, section, title, built))
      : html(reply, layout(v, section, built.title, built.body));
  };
  const done = async (
    req: FastifyRequest,
    reply: FastifyReply,
    to: string,
    text: string,
    extra: { progress?: { done: number; failed: number; total: number } } = {},
  ) => {
    await sessions.setFlash(deps.db, sessionPrincipal(req).sessionId!, { kind: 'ok', text, ...extra });
    return reply.redirect(to, 303);
  };
  const form = (req: FastifyRequest) => new Form((req.body ?? {}) as FormBody);
  const org = (req: FastifyRequest): KeyPrincipal => {
    const s = sessionPrincipal(req);
    return {
      kind: 'key',
      userId: s.userId,
      keyId: 'dashboard',
      mode: modeOf(req, s),
      keyClass: 'full',
      personId: s.personId,
    };
  };
  const presentEvent = async (row: events.EventRow) =>
    present.presentEvent(row, await events.usageFor(deps.db, row.id));
  const eventPath = (id: string, rest = '') => `/dashboard/events/${encodeURIComponent(id)}${rest}`;

  function preSession(req: FastifyRequest, reply: FastifyReply): string {
    let value = sessions.parseCookies(req.headers.cookie).get(sessions.PRE_SESSION_COOKIE);
    if (value === undefined || !/^[A-Za-z0-9_-]{24}$/.test(value)) {
      value = sessions.newPreSessionValue();
      reply.header('set-cookie', sessions.cookie(sessions.PRE_SESSION_COOKIE, value, 60 * 60));
    }
    return sessions.csrfToken(secret, value);
  }

  /** Starts the cookie session; `alsoSet` adds cookies of the same answer (the device cookie). */
  async function signIn(reply: FastifyReply, userId: string, next: string, alsoSet: string[] = []) {
    await sessions.sweepExpired(deps, userId);
    const { token, maxAgeSeconds } = await sessions.startSession(deps, userId);
    reply.header('set-cookie', [
      sessions.cookie(sessions.SESSION_COOKIE, token, maxAgeSeconds),
      sessions.clearCookie(sessions.PRE_SESSION_COOKIE),
      ...alsoSet,
    ]);
    return reply.redirect(next, 303);
  }

  return { deps, secret, viewer, html, show, done, form, org, presentEvent, eventPath, preSession, signIn };
}

// ---------------------------------------------------------------- pure helpers

export const sentence = (message: string) =>
  message.charAt(0).toUpperCase() + message.slice(1) + (/[.!?]$/.test(message) ? '' : '.');

export function pathOf(req: FastifyRequest): string {
  return req.method === 'GET' ? req.url : '/dashboard/events';
}

/** Only our own dashboard paths: never an open redirect. */
export function safeNext(next: string | undefined): string {
  // Printable ASCII only, without backslashes: control characters (CR, LF: a header split) and
  // anything Node refuses in a Location header never reach one (paths we make are %-encoded).
  return typeof next === 'string' && /^\/dashboard(\/[!-[\]-~]*)?$/.test(next) && !next.startsWith('//')
    ? next
    : '/dashboard/events';
}

export function backTo(req: FastifyRequest): string | null {
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

export interface Titled {
  title: string;
  body: Html;
}
