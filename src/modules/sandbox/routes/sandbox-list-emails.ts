import { Type } from 'typebox';
import { keyPrincipal } from '../../../http/auth.js';
import { PageFields, PageQuery, parseLimit } from '../../../http/paging.js';
import { pageKeptEmails } from '../../mail/sandbox-mail.js';
import { type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { SandboxRouteDeps, E } from './sandbox-shared.js';

const examples: OperationExamples = {
  params: { limit: '20' },
  responses: {
    '200': {
      success: true,
      count: 2,
      hasMore: false,
      nextCursor: null,
      data: [
        {
          id: 'bc_Wq2Lx8Km4Zv7Tb1Nc9Rd:attendee@example.in',
          to: ['attendee@example.in'],
          subject: 'Doors open at 9:30',
          text: 'See you at Hall B. Bring your ticket QR.\n\n--\nYou receive this because you registered for Broadcast meetup.',
          attachments: [],
          createdAt: '2026-11-25T07:51:24.908Z',
        },
      ],
    },
  },
};

export const sandboxListEmails: Operation<SandboxRouteDeps> = (app, deps) =>
  app.get(
    '/api/v1/sandbox/emails',
    {
      config: { auth: { kind: 'key', classes: ['full'], modes: ['test'] }, examples },
      schema: {
        operationId: 'sandboxListEmails',
        tags: ['sandbox'],
        summary: 'The mails test mode would have sent, newest first',
        description:
          'Ticket mails (attachments `ticket-<id>.png` and `event.ics`), membership confirmations and payment-received mails, broadcasts. In pages: `limit` (default 100, at most 1,000), then `startingAfter=<nextCursor>` while `hasMore`; `count` is the total kept. Kept mails are pruned after 30 days.',
        querystring: Type.Object(
          {
            limit: PageQuery.limit,
            startingAfter: Type.Optional(
              Type.String({ maxLength: 600, description: 'The `nextCursor` of the previous page.' }),
            ),
          },
          { additionalProperties: false },
        ),
        response: {
          400: E,
          200: answer(
            Type.Object({
              success: Type.Literal(true),
              count: Type.Integer({ description: 'The total number of kept mails (all pages).' }),
              ...PageFields,
              data: Type.Array(
                Type.Object({
                  id: Type.String(),
                  to: Type.Array(Type.String()),
                  subject: Type.String(),
                  text: Type.String(),
                  attachments: Type.Array(Type.String(), { description: 'File names.' }),
                  createdAt: Type.String({ format: 'date-time' }),
                }),
              ),
            }),
            'A page of kept mails, newest first.',
          ),
        },
      },
    },
    async (req) => {
      const page = await pageKeptEmails(deps.db, keyPrincipal(req).userId, {
        limit: parseLimit(req.query.limit),
        startingAfter: req.query.startingAfter,
      });
      return {
        success: true as const,
        data: page.items,
        count: page.count,
        hasMore: page.hasMore,
        nextCursor: page.nextCursor,
      };
    },
  );
