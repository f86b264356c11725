import { Type } from 'typebox';
import { FULL_ONLY, keyPrincipal } from '../../../http/auth.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import type { WaitlistDeps } from '../waitlist.service.js';
import * as waitlist from '../waitlist.service.js';
import { EntryParams, E, Entry } from './waitlist-entry.js';

const examples: OperationExamples = {
  responses: {
    '200': {
      success: true,
      data: {
        id: EX.entryId,
        name: 'Kiran Shah',
        email: 'kiran@example.in',
        ticketType: 'General',
        subEventId: null,
        status: 'removed',
        offeredAt: null,
        expiresAt: null,
        registrationId: null,
        createdAt: '2026-11-25T07:51:24.908Z',
      },
    },
  },
};

export const removeWaitlistEntry: Operation<WaitlistDeps> = (app, deps) =>
  app.delete(
    '/api/v1/events/:id/waitlist/:entryId',
    {
      config: { auth: FULL_ONLY, examples },
      schema: {
        operationId: 'removeWaitlistEntry',
        tags: ['waitlist'],
        summary: 'Take someone off the waitlist',
        description:
          'A waiting entry leaves the queue; an offer it held is withdrawn and its seat offered to the next in line at once. 409 `waitlist_entry_ended` when it was already booked, lapsed or removed.',
        params: EntryParams,
        response: {
          200: answer(Type.Object({ success: Type.Literal(true), data: Entry }), 'The entry, now removed.'),
          404: E,
          409: E,
        },
      },
    },
    async (req) => ({
      success: true as const,
      data: waitlist.presentEntry(
        await waitlist.removeEntry(deps, keyPrincipal(req), req.params.id, req.params.entryId),
      ),
    }),
  );
