// The dashboard's event setup forms: tracks, price tiers, registration questions and promo codes
// (the setup page itself and the event form: events.routes.ts).
import type { FastifyInstance } from 'fastify';
import { badRequest } from '../../lib/errors.js';
import * as events from '../../modules/events/events.service.js';
import { categoriesOf, getPlan } from '../../modules/seating/seating-plans.js';
import * as tracks from '../../modules/events/tracks.service.js';
import * as promos from '../../modules/registrations/promo.service.js';
import type { Form } from '../form.js';
import { PAGE, type IdParams, type PageContext } from '../page-context.js';

export function eventSetupPages(app: FastifyInstance, ctx: PageContext): void {
  const { deps, done, form, org, presentEvent, eventPath } = ctx;

  app.post<IdParams>('/dashboard/events/:id/tracks', PAGE, async (req, reply) => {
    const f = form(req);
    await tracks.addTrack(deps.eventDeps, org(req), req.params.id, {
      title: f.text('title', 'Title', 200),
      price: f.number('price', 'Price', 0),
      capacity: f.integer('capacity', 'Capacity', 0),
      ...trackTimes(f),
    });
    return done(req, reply, eventPath(req.params.id, '/setup'), 'Track added.');
  });

  app.post<{ Params: { id: string; index: string } }>(
    '/dashboard/events/:id/tracks/:index',
    PAGE,
    async (req, reply) => {
      const f = form(req);
      const index = events.parseTrackIndex(req.params.index);
      await tracks.patchTrack(deps.eventDeps, org(req), req.params.id, index, {
        title: f.text('title', 'Title', 200),
        price: f.number('price', 'Price', 0),
        capacity: f.integer('capacity', 'Capacity', 0),
        ...trackTimes(f),
      });
      // People count tracks from 1; the API's index stays 0-based.
      return done(req, reply, eventPath(req.params.id, '/setup'), `Track ${index + 1} saved.`);
    },
  );

  app.post<{ Params: { id: string; index: string } }>(
    '/dashboard/events/:id/tracks/:index/remove',
    PAGE,
    async (req, reply) => {
      const index = events.parseTrackIndex(req.params.index);
      await tracks.removeTrack(deps.eventDeps, org(req), req.params.id, index);
      return done(
        req,
        reply,
        eventPath(req.params.id, '/setup'),
        `Track ${index + 1} removed; the tracks after it moved up by one.`,
      );
    },
  );

  app.post<IdParams>('/dashboard/events/:id/tiers', PAGE, async (req, reply) => {
    const f = form(req);
    const p = org(req);
    const event = await presentEvent(await events.loadOwnedEvent(deps.db, p, req.params.id));
    const tier = {
      name: f.required('name', 'Tier name', 80),
      price: f.number('price', 'Price'),
      capacity: f.integer('capacity', 'Capacity', 0),
      membersOnly: f.checked('membersOnly'),
    };
    await events.patchEvent(deps.eventDeps, p, req.params.id, {
      specialPrices: [...event.specialPrices, tier],
    });
    return done(req, reply, eventPath(req.params.id, '/setup'), `Tier ${tier.name} added.`);
  });

  app.post<IdParams>('/dashboard/events/:id/tiers/price', PAGE, async (req, reply) => {
    const f = form(req);
    const name = f.required('name', 'Tier name', 80);
    const price = f.number('price', 'Price', 0);
    const p = org(req);
    const event = await presentEvent(await events.loadOwnedEvent(deps.db, p, req.params.id));
    if (!event.specialPrices.some((t) => t.name === name))
      throw badRequest('unknown_ticket_type', `the event has no tier ${name}`);
    await events.patchEvent(deps.eventDeps, p, req.params.id, {
      specialPrices: event.specialPrices.map((t) => (t.name === name ? { ...t, price } : t)),
    });
    return done(req, reply, eventPath(req.params.id, '/setup'), `Tier ${name} now costs ₹${price}.`);
  });

  // Seating (docs/decisions/23-reserved-seating.md): the event's plan, or every track's; a tier is
  // added for each of the plan's categories the event lacks, at the event's price.
  app.post<IdParams>('/dashboard/events/:id/seating', PAGE, async (req, reply) => {
    const planId = form(req).text('seatingPlanId', 'Seating plan', 100) || null;
    const p = org(req);
    const row = await events.loadOwnedEvent(deps.db, p, req.params.id);
    const event = await presentEvent(row);
    const plan = planId === null ? null : await getPlan(deps.db, row.account_id, planId);
    const missing = (plan ? categoriesOf(plan.layout) : []).filter(
      (c) => !event.specialPrices.some((t) => t.name === c.name),
    );
    await events.patchEvent(deps.eventDeps, p, row.id, {
      ...(row.tracks.length > 0 ? { everyTrackPlanId: planId } : { seatingPlanId: planId }),
      ...(missing.length > 0
        ? {
            specialPrices: [
              ...event.specialPrices,
              ...missing.map((c) => ({ name: c.name, price: event.price, capacity: 0 })),
            ],
          }
        : {}),
    });
    const added = missing.length > 0 ? ` Tiers added: ${missing.map((c) => c.name).join(', ')}.` : '';
    return done(
      req,
      reply,
      eventPath(row.id, '/setup'),
      plan ? `Seated from ${plan.name}.${added}` : 'No longer seated.',
    );
  });

  app.post<IdParams>('/dashboard/events/:id/tiers/remove', PAGE, async (req, reply) => {
    const name = form(req).required('name', 'Tier name', 80);
    const p = org(req);
    const event = await presentEvent(await events.loadOwnedEvent(deps.db, p, req.params.id));
    await events.patchEvent(deps.eventDeps, p, req.params.id, {
      specialPrices: event.specialPrices.filter((t) => t.name !== name),
    });
    return done(req, reply, eventPath(req.params.id, '/setup'), `Tier ${name} removed.`);
  });

  app.post<IdParams>('/dashboard/events/:id/questions', PAGE, async (req, reply) => {
    const f = form(req);
    const p = org(req);
    const event = await presentEvent(await events.loadOwnedEvent(deps.db, p, req.params.id));
    const type = f.text('type', 'Type', 20) || 'text';
    if (!['text', 'number', 'email', 'select', 'checkbox'].includes(type))
      throw badRequest('invalid_custom_field', 'type must be text, number, email, select or checkbox');
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
    await events.patchEvent(deps.eventDeps, p, req.params.id, {
      customFields: [...event.customFields.map(customFieldInput), field],
    });
    return done(req, reply, eventPath(req.params.id, '/setup'), 'Question added.');
  });

  app.post<IdParams>('/dashboard/events/:id/questions/remove', PAGE, async (req, reply) => {
    const name = form(req).required('name', 'Field name', 50);
    const p = org(req);
    const event = await presentEvent(await events.loadOwnedEvent(deps.db, p, req.params.id));
    await events.patchEvent(deps.eventDeps, p, req.params.id, {
      customFields: event.customFields.filter((c) => c.name !== name).map(customFieldInput),
    });
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
    if (percent && (!Number.isInteger(value) || value < 1 || value > 100))
      throw badRequest('invalid_promo_code', 'a percentage discount must be a whole number from 1 to 100');
    const created = await promos.createPromo(deps, row.id, {
      code: f.required('code', 'Code', 40),
      ...(percent ? { discountPercent: value } : { discountAmount: value }),
      ...(maxUses !== undefined ? { maxUses: f.integer('maxUses', 'Most uses') } : {}),
      ...(validFrom !== undefined ? { validFrom } : {}),
      ...(validUntil !== undefined ? { validUntil } : {}),
    });
    return done(req, reply, eventPath(req.params.id, '/setup'), `Promo code ${created.code} added.`);
  });
}

/** A track's start and end from the form; empty means not given (the start then follows the event's). */
function trackTimes(f: Form): { date: string | null; endDate: string | null } {
  return { date: f.instant('date', 'Starts') ?? null, endDate: f.instant('endDate', 'Ends') ?? null };
}

function customFieldInput(c: {
  name: string;
  label: string;
  type: 'text' | 'number' | 'email' | 'select' | 'checkbox';
  required: boolean;
  options: string[] | null;
}): events.CustomFieldInput {
  return {
    name: c.name,
    label: c.label,
    type: c.type,
    required: c.required,
    ...(c.options ? { options: c.options } : {}),
  };
}
