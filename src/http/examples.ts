// The examples of the OpenAPI document. Each operation keeps its examples beside its route, in
// the route's `config.examples` (src/http/operation.ts); the app collects them as routes are
// registered and `addExamples` (the document transform) puts them into the document. An entry
// gives the operation's parameters (path and query, by name), its request bodies (named when
// there are several, e.g. the two steps of a paid registration) and its answers (by status, or
// `status name` to pair an answer with the request example of that name).
//
// The ids below are the document's stand-ins: test/openapi/examples.test.ts sends every
// request example to a real server after swapping each stand-in for an object it created,
// and checks each answer against the document; it fails naming any operation without an
// example.
type Json = Record<string, unknown>;

/** Stand-in values shared by the examples; the examples test swaps each for a real one. */
export const EX = {
  /** A waiting room's solved challenge (`altcha`) and a place's status token. */
  queueAltcha: 'eyJjaGFsbGVuZ2UiOnsicGFyYW1ldGVycyI6e319LCJzb2x1dGlvbiI6e319',
  queueStatusToken: 'wp_8fJ2kQ1xLm0aZ9pYvN3bTw.Xc1Kq9vZt0LmP2aB7yWnQe',
  queueVerificationId: 'wv_Q2x8LmN0pZ4aY7bT1cV9dW',
  queueCode: '493027',
  userId: 'usr_V1c3nB8qLm2xT0aZ',
  organiserEmail: 'asha.rao@example.in',
  password: 'correct horse battery staple',
  newPassword: 'a new long passphrase',
  changedPassword: 'another long passphrase',
  verificationToken: 'vt_2Jx8QmT4kLr9Zp1VbN7cYd3HwS6fGa0EeU5iOq',
  resetToken: 'rt_8Lm2Qx7KpV4zT1nB9cWd3YhS6fGa0EeU5iOjRk',
  keyId: 'key_Pq8Xv2LmK7nZ3tRb',
  memberUserId: 'usr_Mb7Qx2Lk9Zt4Rv1N',
  memberEmail: 'ravi.menon@example.in',
  invitationId: 'inv_Qz4Lm8Xk2Vt7',
  invitationToken: 'it_5Kx9QmT2kLr8Zp4VbN1cYd7HwS3fGa6EeU0iOq',
  apiKey: 'sk_test_4eC39HqLyjWDarjtT1zdp7dc',
  checkoutKey: 'pk_test_TYooMQauvdEDq54NiTphI7jx',
  jobId: 'job_Ua2Wq9Lx4Kc7Mz1Rt8Vb0N',
  eventId: 'ev_Hk2Qz8Lm4Xv7Tb1N',
  slug: 'pune-tech-summit-2027',
  registrationId: 'reg_Qm7Zx2Kv9Lt4Rb8Nc1Wd5a',
  orderId: 'order_SbQ2m8KxL4vZ7t',
  paymentId: 'pay_Ns7Kq2Lm9Xv4Zb1T',
  razorpaySignature: '5f1c9a2b7e3d4c6f8a0b1e2d3c4b5a69788796a5b4c3d2e1f0a9b8c7d6e5f4a3',
  promoId: 'promo_Lq4Zx8Km2Vt7',
  entryId: 'wl_Zt4Qm8Lx2Kv7Rb9Nc1Wd5e',
  passId: 'dp_Rz5Km2Qx8Lv4Tb7N',
  doorToken: 'dpt_9Xk2Lm7Qv4Zt1Rb8Nc3Wd6Hy0Js5Fe',
  doorAsset: 'door.7c1e9a4b2f.js',
  ticketKey: '3b8f1c2d4e5a6978a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718',
  attendeeToken: 'reg_Qm7Zx2Kv9Lt4Rb8Nc1Wd5a.Xy7Lq2Mz9Kv4Tb1Nc8Rd5e',
  documentNumber: 'TIXI2627-000001',
  csrf: 'c1Xk8Lm2Qv7Zt4Rb9Nc3Wd6Hy0Js5FeU2iOa',
  planId: 'plan_Lx9Qm2Kv7Zt4Rb1N',
  planSlug: 'annual-membership',
  seatingPlanId: 'seatplan_Hq7Lm2Xv9Kt4Zb1R',
  holdToken: 'hold_Vq3Kx8Zt1Lm7Rb4Nw2Yc9Hd6Pf5Js0G',

  membershipId: 'mem_Tq3Zm8Lx2Kv7Rb9N',
  subscriptionId: 'sub_Rk4Lm9Qx2Zv7Tb1N',
  broadcastId: 'bc_Wq2Lx8Km4Zv7Tb1Nc9Rd',
  payoutId: 'po_Vm3Qx8Lk2Zt7Rb4Nc9Wd1e',
  publishingRequestId: 'pubreq_Kx4Lm9Qz2Vt7',
  verifyToken: 'meta-verify-token',
  challenge: '1158201444',
  totpCode: '492039',
  twoFactorChallenge:
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJlcCI6MCwic3ViIjoidXNyX1YxYzNuQjhxTG0yeFQwYVoiLCJhdWQiOiJ0d28tZmFjdG9yLWNoYWxsZW5nZSJ9.sig',
} as const;

export interface OperationExamples {
  /** Path and query parameter examples, by name. */
  params?: Readonly<Record<string, string>>;
  /** Request bodies by name (`default` for an operation with one). */
  requests?: Readonly<Record<string, { summary?: string; value: unknown }>>;
  /** Answers by `status` or `status name` (the answer to the request example of that name). */
  responses: Readonly<Record<string, unknown>>;
}

const PARAM_DEFAULTS: Readonly<Record<string, string>> = {
  id: EX.eventId,
  eventId: EX.eventId,
  registrationId: EX.registrationId,
  keyId: EX.keyId,
  userId: EX.userId,
  invitationId: EX.invitationId,
  passId: EX.passId,
  entryId: EX.entryId,
  broadcastId: EX.broadcastId,
  orderId: EX.orderId,
  subscriptionId: EX.subscriptionId,
  payoutId: EX.payoutId,
  slug: EX.slug,
  token: EX.attendeeToken,
  number: EX.documentNumber,
  key: EX.checkoutKey,
  limit: '20',
  mode: 'test',
  'idempotency-key': '6f1c2a9e-3b7d-4c58-9e0a-1d2b3c4d5e6f',
};

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch']);

/** Puts each operation's examples into the document (parameters, request bodies, answers). */
export function addExamples(doc: Json, examples: ReadonlyMap<string, OperationExamples>): void {
  for (const item of Object.values((doc.paths ?? {}) as Record<string, Json>)) {
    for (const [method, op] of Object.entries(item as Record<string, Json>)) {
      if (!METHODS.has(method) || !op || typeof op !== 'object') continue;
      const ex = examples.get(String(op.operationId));
      for (const p of (op.parameters ?? []) as Json[]) {
        const name = String(p.name);
        const value =
          ex?.params?.[name] ??
          (p.in === 'path' || name === 'idempotency-key' ? PARAM_DEFAULTS[name] : undefined);
        const numeric =
          ['integer', 'number'].includes(String((p.schema as Json | undefined)?.type)) &&
          value !== undefined &&
          /^[0-9]+$/.test(value);
        if (value !== undefined && p.example === undefined) p.example = numeric ? Number(value) : value;
      }
      if (!ex) continue;
      const body = (op.requestBody as Json | undefined)?.content as Record<string, Json> | undefined;
      if (body && ex.requests) {
        const media = Object.values(body)[0]!;
        const named = Object.entries(ex.requests);
        if (named.length === 1 && named[0]![0] === 'default') media.example = named[0]![1].value;
        else
          media.examples = Object.fromEntries(
            named.map(([name, e]) => [
              name,
              { ...(e.summary ? { summary: e.summary } : {}), value: e.value },
            ]),
          );
      }
      const responses = (op.responses ?? {}) as Record<string, Json>;
      for (const [key, value] of Object.entries(ex.responses)) {
        const [status, name] = key.split(' ');
        const content = responses[status!]?.content as Record<string, Json> | undefined;
        if (!content) continue;
        const media = content['application/json'] ?? Object.values(content)[0]!;
        if (name === undefined) media.example = value;
        else media.examples = { ...(media.examples as Json | undefined), [name]: { value } };
      }
    }
  }
}
