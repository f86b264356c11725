// What the sandbox operations share: the deps type, schemas and helpers of routes/.
import { Type } from 'typebox';
import { type SandboxPlayDeps } from '../checkout.service.js';

/** What the sandbox operations need. */
export type SandboxRouteDeps = SandboxPlayDeps;

export const E = Type.Ref('Error');

export const TestClock = Type.Object({
  success: Type.Literal(true),
  now: Type.String({ format: 'date-time' }),
  offsetDays: Type.Number(),
});

export const present = (c: { now: Date; offsetDays: number }) => ({
  success: true as const,
  now: c.now.toISOString(),
  offsetDays: c.offsetDays,
});

// The buyer approves the mandate from the checkout (a checkout key may do that much); the
// gateway's own events — a charge, a halt, a cancellation — are the organiser's to play.
export const SubscriptionResult = {
  200: Type.Object({
    success: Type.Literal(true),
    result: Type.Union([Type.Literal('applied'), Type.Literal('ignored')]),
  }),
  404: E,
};
