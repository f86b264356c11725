// What the membership operations share: what they need, the plan as they answer it, a page of
// items, and what a checkout key may see of a membership.
import { Type, type TSchema } from 'typebox';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import type { Clock } from '../../../lib/clock.js';
import { Nullable } from '../../../http/schemas.js';
import { PageFields } from '../../../http/paging.js';
import type { MembershipDeps } from '../memberships.service.js';
import { Membership } from '../memberships.schemas.js';

/** What the membership operations need. */
export interface MembershipsDeps {
  db: Kysely<Database>;
  clock: Clock;
  membershipDeps: MembershipDeps;
}

export const E = Type.Ref('Error');

export const StartingAfter = Type.Optional(
  Type.String({ maxLength: 600, description: 'The `nextCursor` of the previous page.' }),
);
export const PageOf = <T extends TSchema>(item: T) =>
  Type.Object({
    success: Type.Literal(true),
    data: Type.Array(item),
    count: Type.Integer({ description: 'The total number of items (all pages).' }),
    ...PageFields,
  });

export const Plan = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  amount: Type.Number({ description: 'Rupees: per period for recurring, once for fixed_term.' }),
  currency: Type.Literal('INR'),
  kind: Type.Union([Type.Literal('fixed_term'), Type.Literal('recurring')]),
  termMonths: Nullable(Type.Integer()),
  period: Nullable(Type.String()),
  totalCount: Type.Integer({ description: '0 means until cancelled.' }),
  mode: Type.Union([Type.Literal('test'), Type.Literal('live')]),
  gatewayPlanId: Nullable(Type.String()),
  slug: Type.String({
    description:
      'Public: the plan’s hosted page is `/m/{slug}` (a test plan’s needs `?key=<pk_test_…>`), and embed.js opens it for `data-svc-plan="<slug>"`. Made from the name at creation.',
  }),
  createdAt: Type.String({ format: 'date-time' }),
});

/** What a checkout key (a browser) may read of a membership: ids and the state needed to pay, no personal data. */
export const CheckoutMembership = Type.Object(
  {
    id: Type.String(),
    planId: Type.String(),
    status: Type.String({
      description: 'Stored state: created, authorised, active, halted, ended or pending_payment.',
    }),
  },
  {
    title: 'CheckoutMembership',
    description: 'A membership as a checkout key sees it: no name, email, phone, standing or dates.',
  },
);

export const SubscribeExisting = Type.Object(
  {
    success: Type.Literal(true),
    existing: Type.Literal(true),
    membershipId: Type.Optional(Type.String({ description: 'Full keys only.' })),
    planId: Type.Optional(Type.String({ description: 'Full keys only.' })),
    data: Type.Optional(Membership),
    keyId: Type.Optional(Type.String()),
    pendingAuthorisation: Type.Optional(Type.Literal(true)),
    subscriptionId: Type.Optional(Nullable(Type.String())),
    authorisationUrl: Type.Optional(Nullable(Type.String())),
    orderId: Type.Optional(
      Type.String({
        description: 'The open order this membership waits to be paid with (the same on every repeat).',
      }),
    ),
    amount: Type.Optional(Type.Integer({ description: 'Paise.' })),
    currency: Type.Optional(Type.String()),
  },
  {
    title: 'SubscribeExisting',
    description:
      'For a full key: the membership’s ids, `data` (the Membership, with personal data and standing) and the open order or subscription to pay. For a checkout key exactly `{ success, existing: true }`: the id of a membership is what members-only tiers accept as proof, so it never reaches a browser that merely knows an email (nor its order, subscription or mandate link).',
  },
);
