// The door for members (docs/decisions/25-organiser-teams-and-roles.md): a door member (and
// anyone with the door permission) opens an event's phone door screen from the dashboard, with
// no door link handed to them. Opening makes a door pass for that person, named after them so
// every admit and undo names who did it, expiring after DOOR_SHIFT_MS, and goes to its screen.
import type { FastifyInstance } from 'fastify';
import { sessionPrincipal } from '../../http/auth.js';
import { badRequest } from '../../lib/errors.js';
import { listChoices, scopeOfChoice } from '../../modules/checkin/door-list.js';
import * as doorPasses from '../../modules/checkin/door.service.js';
import * as events from '../../modules/events/events.service.js';
import { html, type Html } from '../html.js';
import { csrfField, eventWhen } from '../layout.js';
import { PAGE, type IdParams, type PageContext } from '../page-context.js';

/** How long a member's own door pass works: a day's shift; they open the screen again after. */
export const DOOR_SHIFT_MS = 12 * 60 * 60 * 1000;

type DoorEvent = {
  id: string;
  title: string;
  startDate: string | null;
  lists: { value: string; label: string }[];
};

function doorOpenForm(csrf: string, e: DoorEvent, i: number): Html {
  return html`<li class="card"><h2 id="door-ev-${String(i)}">${e.title}</h2><p>${eventWhen(e.startDate)}</p>
<form method="post" action="/dashboard/events/${encodeURIComponent(e.id)}/door/open" aria-labelledby="door-ev-${String(i)}">${csrfField(csrf)}
${
  e.lists.length > 1
    ? html`<div class="field"><label for="door-scope-${String(i)}">Admits for</label><select id="door-scope-${String(i)}" name="scope">${e.lists.map((c) => html`<option value="${c.value}">${c.label}</option>`)}</select></div>`
    : ''
}
<button>Open the door screen</button>
</form></li>`;
}

export function doorMemberPages(app: FastifyInstance, ctx: PageContext): void {
  const { deps, show, form, org } = ctx;

  app.get('/dashboard/door', PAGE, async (req, reply) =>
    show(req, reply, 'door', 'Door', async (v) => {
      const list = (await events.listEvents(deps.db, org(req))).filter(
        (e) => !v.s.eventIds || v.s.eventIds.includes(e.id),
      );
      const items: DoorEvent[] = list.map((e) => ({
        id: e.id,
        title: e.title,
        startDate: e.start_date,
        lists: listChoices(
          { tracks: e.tracks, startDate: e.start_date, endDate: e.end_date },
          deps.config.eventTimeZone,
        ),
      }));
      return html`<p>Open an event’s door screen on this phone: scan or search, admit and undo, also offline. What you admit is recorded under your name. The screen works for 12 hours, or until your role changes; open it again from here after that.</p>
${items.length === 0 ? html`<p>You admit for no event yet.</p>` : html`<ul class="plain">${items.map((e, i) => doorOpenForm(v.csrf, e, i))}</ul>`}`;
    }),
  );

  app.post<IdParams>('/dashboard/events/:id/door/open', PAGE, async (req, reply) => {
    const s = sessionPrincipal(req);
    const scope = scopeOfChoice(form(req).optional('scope', 'Admits for', 20) ?? 'event');
    if (scope === undefined)
      throw badRequest('invalid_field', 'Admits for: choose the whole event, a session or a day', {
        field: 'scope',
      });
    const created = await doorPasses.createPass(
      deps,
      org(req),
      req.params.id,
      {
        label: `${s.email} (member)`,
        scope,
        expiresAt: new Date(deps.clock.now().getTime() + DOOR_SHIFT_MS).toISOString(),
      },
      { forMember: s.personId },
    );
    reply.header('cache-control', 'no-store');
    // The screen's own path: the same service, whatever address the browser reached it by.
    return reply.redirect(new URL(created.url).pathname, 303);
  });
}
