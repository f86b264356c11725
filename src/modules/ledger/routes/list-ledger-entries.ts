import { Type } from 'typebox';
import { sessionPrincipal } from '../../../http/auth.js';
import { paiseToRupees } from '../../../lib/money.js';
import * as ledger from '../ledger.service.js';
import { PageFields, PageQuery, parseLimit } from '../../../http/paging.js';
import { ModeQuery } from '../paging.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { LedgerRouteDeps, LEDGER_DESCRIPTION, Entry, session } from './ledger-shared.js';

const examples: OperationExamples = {
  params: { mode: 'test', limit: '20' },
  responses: {
    '200': {
      success: true,
      data: [
        {
          id: 'le_WCECmdYYHxVAcV76T32c9b',
          kind: 'ticket_sale',
          amount: 499,
          source: { type: 'registration', id: EX.registrationId, paymentId: null },
          capturedAt: '2026-11-25T07:51:24.908Z',
          availableFrom: '2026-11-27T07:51:24.908Z',
          createdAt: '2026-11-25T07:51:24.908Z',
        },
      ],
      hasMore: false,
      nextCursor: null,
    },
  },
};

export const listLedgerEntries: Operation<LedgerRouteDeps> = (app, deps) =>
  app.get(
    '/dashboard/api/ledger',
    {
      config: { ...session, examples },
      schema: {
        operationId: 'listLedgerEntries',
        tags: ['dashboard'],
        summary: "The session account's ledger entries, newest first, a page at a time",
        description: LEDGER_DESCRIPTION,
        querystring: Type.Object({ mode: ModeQuery, ...PageQuery }, { additionalProperties: false }),
        response: {
          200: answer(
            Type.Object({ success: Type.Literal(true), data: Type.Array(Entry), ...PageFields }),
            'A page of ledger entries, newest first.',
          ),
        },
      },
    },
    async (req) => {
      const page = await ledger.listEntries(
        deps.payoutDeps,
        sessionPrincipal(req).userId,
        req.query.mode ?? 'live',
        parseLimit(req.query.limit),
        req.query.startingAfter,
      );
      return {
        success: true as const,
        data: page.items.map((e) => ({
          id: e.id,
          kind: e.kind,
          amount: paiseToRupees(e.amountPaise),
          source: {
            type: e.sourceType,
            id: e.sourceId,
            paymentId: e.sourceType === 'membership' ? e.ref : null,
          },
          capturedAt: e.capturedAt?.toISOString() ?? null,
          availableFrom: (e.availableFrom ?? e.createdAt).toISOString(),
          createdAt: e.createdAt.toISOString(),
        })),
        hasMore: page.hasMore,
        nextCursor: page.nextCursor,
      };
    },
  );
