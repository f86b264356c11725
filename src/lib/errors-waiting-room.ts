// The refusals of the waiting room (docs/decisions/26-a-fair-waiting-room.md), part of the one
// catalogue in error-catalogue.ts.

export const WAITING_ROOM_ERRORS = {
  invalid_on_sale: { status: 400, message: 'the on-sale settings are not valid' },
  invalid_queue_token: { status: 400, message: 'this is not a place in this event’s waiting room' },
  invalid_verification: {
    status: 400,
    message: 'this verification is unknown, or its code was used already: join again for a new code',
  },
  invalid_code: { status: 400, message: 'the code is not the one sent; check it and try again' },
  code_expired: { status: 400, message: 'the code has expired: join again for a new one' },
  channel_unavailable: {
    status: 400,
    message: 'codes by WhatsApp are not available for this sale: ask for the code by mail',
  },
  proof_of_work_required: {
    status: 403,
    message: 'joining the waiting room needs the solved challenge of GET /e/{slug}/queue/challenge',
  },
  proof_of_work_invalid: {
    status: 403,
    message: 'the challenge’s solution is wrong, expired or already used: fetch a new challenge',
  },
  admission_required: {
    status: 403,
    message: 'this sale has a waiting room: book with the admission token the queue hands out',
  },
  waiting_room_not_found: { status: 404, message: 'this event has no waiting room' },
  too_many_joins: { status: 429, message: 'too many joins from this address; retry later' },
  too_many_codes: { status: 429, message: 'too many codes sent to this contact for this event; retry later' },
  waiting_room_unavailable: {
    status: 503,
    message: 'the waiting room cannot answer just now; your place is kept, ask again in a few seconds',
  },
} as const satisfies Record<string, { readonly status: number; readonly message: string }>;
