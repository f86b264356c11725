// The dashboard's seating plan screens (docs/decisions/23-reserved-seating.md): the account's
// plans, making one from a grid, and one plan drawn, renamed and its seats blocked, released or
// marked accessible by name. Every change goes through the seating module's own functions, as
// the API's does; a plan is the account's in both modes.
import type { FastifyInstance } from 'fastify';
import { can } from '../layout.js';
import { badRequest } from '../../lib/errors.js';
import type { SeatAction } from '../../modules/seating/seat-edits.js';
import {
  createPlan,
  editPlanSeats,
  getPlan,
  listPlans,
  replacePlan,
} from '../../modules/seating/seating-plans.js';
import type { Form } from '../form.js';
import { PAGE, type IdParams, type PageContext } from '../page-context.js';
import { planPage, planPath, plansPage } from '../views/seating.js';

const ACTIONS: Record<string, { action: SeatAction; said: string }> = {
  block: { action: 'block', said: 'blocked' },
  release: { action: 'release', said: 'for sale again' },
  accessible: { action: 'accessible', said: 'marked accessible' },
  'not-accessible': { action: 'not-accessible', said: 'no longer marked accessible' },
};

/** The grid the new-plan form describes: one section of rows × seats. */
function gridOf(f: Form) {
  const list = (name: string, label: string) =>
    f
      .text(name, label, 2000)
      .split(',')
      .map((v) => v.trim())
      .filter((v) => v !== '');
  const aisles = list('aisleAfter', 'Aisles').map((v) => {
    if (!/^\d{1,3}$/.test(v))
      throw badRequest('invalid_field', 'aisles are seat numbers, such as 10 or 5, 15');
    return Number(v);
  });
  const categories = list('categories', 'Categories');
  if (categories.length === 0) throw badRequest('invalid_field', 'name at least one category, such as Gold');
  const numbering = f.text('numbering', 'Numbering', 20);
  return {
    sections: [
      {
        name: f.text('section', 'Section', 40).trim() || 'Stalls',
        rows: f.integer('rows', 'Rows'),
        seatsPerRow: f.integer('seatsPerRow', 'Seats in each row'),
        category: categories,
        ...(aisles.length > 0 ? { aisleAfter: aisles } : {}),
        numbering: numbering === 'right-to-left' ? ('right-to-left' as const) : ('left-to-right' as const),
        curve: f.number('curve', 'Curve', 0),
      },
    ],
  };
}

export function seatingPages(app: FastifyInstance, ctx: PageContext): void {
  const { deps, show, done, form, org } = ctx;

  app.get('/dashboard/seating-plans', PAGE, async (req, reply) =>
    show(req, reply, 'seating', 'Seating plans', async (v) => {
      const page = await listPlans(deps.db, v.s.userId, { limit: 200 });
      return plansPage(v.csrf, page.items, can(v, 'seating.manage'));
    }),
  );

  app.post('/dashboard/seating-plans', PAGE, async (req, reply) => {
    const f = form(req);
    const name = f.required('name', 'Name', 200);
    const plan = await createPlan(deps, org(req).userId, { name, grid: gridOf(f) });
    return done(req, reply, planPath(plan.id), `Made ${plan.name}: ${plan.seat_count} seats.`);
  });

  app.get<IdParams>('/dashboard/seating-plans/:id', PAGE, async (req, reply) =>
    show(req, reply, 'seating', 'Seating plan', async (v) => {
      const plan = await getPlan(deps.db, v.s.userId, req.params.id);
      return { title: plan.name, body: planPage(v.csrf, plan, can(v, 'seating.manage')) };
    }),
  );

  app.post<IdParams>('/dashboard/seating-plans/:id/name', PAGE, async (req, reply) => {
    const name = form(req).required('name', 'Name', 200);
    const plan = await replacePlan(deps, org(req).userId, req.params.id, { name });
    return done(req, reply, planPath(plan.id), `Renamed to ${plan.name}.`);
  });

  app.post<IdParams>('/dashboard/seating-plans/:id/seats', PAGE, async (req, reply) => {
    const f = form(req);
    const chosen = ACTIONS[f.text('action', 'Action', 20)];
    if (!chosen) throw badRequest('invalid_field', 'choose what to make the seats');
    const seats = f.required('seats', 'Seats', 20_000);
    const { plan, named } = await editPlanSeats(deps, org(req).userId, req.params.id, seats, chosen.action);
    return done(req, reply, planPath(plan.id), `${named} ${named === 1 ? 'seat' : 'seats'} ${chosen.said}.`);
  });
}
