// The hosted page's forms (the waitlist): the answer, and any refusal, links back to the
// event's page as the widget had it open.
import type { FastifyRequest } from 'fastify';
import { eventPageHref, type BackLink } from '../layout.html.js';
import { EMBEDS, type CheckoutContext } from '../page-context.js';

export function backToEvent(ctx: CheckoutContext, req: FastifyRequest): BackLink {
  const b = (req.body ?? {}) as { key?: unknown; origin?: unknown; embed?: unknown };
  const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const embed = EMBEDS.find((e) => e === b.embed);
  return {
    href: eventPageHref((req.params as { slug: string }).slug, {
      key: text(b.key),
      origin: text(b.origin),
      embed,
    }),
    label: ctx.s.backToEvent,
  };
}
