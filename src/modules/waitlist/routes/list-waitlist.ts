import { Type } from 'typebox';
import { FULL_ONLY, keyPrincipal } from '../../../http/auth.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { PageFields, PageQuery, parseLimit } from '../../../http/paging.js';
import type { WaitlistDeps } from '../waitlist.service.js';
import * as waitlist from '../waitlist.service.js';
import { IdParams, E, Entry, RULES } from './waitlist-entry.js';

const examples: OperationExamples = {
  params: { limit: '20' },
  responses: {
    '200': {
      success: true,
      data: [
        {
          id: EX.entryId,
          name: 'Kiran Shah',
          email: 'kiran@example.in',
          ticketType: 'General',
          subEventId: null,
          status: 'waiting',
          offeredAt: null,
          expiresAt: null,
          registrationId: null,
          createdAt: '2026-11-25T07:51:24.908Z',
        },
      ],
      count: 1,
      hasMore: false,
      nextCursor: null,
    },
  },
};

export const listWaitlist: Operation<WaitlistDeps> = (app, deps) =>
  app.get(
    '/api/v1/events/:id/waitlist',
    {
      config: { auth: FULL_ONLY, examples },
      schema: {
        operationId: 'listWaitlist',
        tags: ['waitlist'],
        summary: 'The event’s waitlist, in arrival order',
        description: [
          'Personal data: full keys only. `open=true` lists only those waiting or holding an offer. Paged like every list; `count` is the total.',
          RULES,
        ].join('\n\n'),
        params: IdParams,
        querystring: Type.Object(
          { ...PageQuery, open: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])) },
          { additionalProperties: false },
        ),
        response: {
          200: answer(
            Type.Object({
              success: Type.Literal(true),
              data: Type.Array(Entry),
              count: Type.Integer(),
              ...PageFields,
            }),
            'A page of waitlist entries, in arrival order.',
          ),
          400: E,
          404: E,
        },
      },
    },
    async (req) => {
      const page = await waitlist.listEntries(deps.db, keyPrincipal(req), req.params.id, {
        limit: parseLimit(req.query.limit),
        startingAfter: req.query.startingAfter,
        open: req.query.open === 'true',
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
