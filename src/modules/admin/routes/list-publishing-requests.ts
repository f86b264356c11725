import { Type } from 'typebox';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { PageFields, PageQuery, parseLimit } from '../../../http/paging.js';
import * as publishing from '../../accounts/publishing.js';
import { ReviewedRequest } from '../../accounts/publishing.schemas.js';
import * as events from '../../events/events.service.js';
import { type AdminDeps, STAFF } from './admin.js';
import { EXAMPLE_PUBLISHING_REQUEST } from './publishing-request-example.js';

const examples: OperationExamples = {
  params: { status: 'pending', limit: '20' },
  responses: {
    '200': {
      success: true,
      data: [
        {
          ...EXAMPLE_PUBLISHING_REQUEST,
          account: {
            userId: EX.userId,
            email: EX.organiserEmail,
            name: 'Asha Rao',
            phone: '+919812345678',
            emailVerified: true,
            canPublish: false,
            createdAt: '2026-11-20T10:02:11.000Z',
            events: { test: 2, live: 0 },
          },
        },
      ],
      count: 1,
      hasMore: false,
      nextCursor: null,
    },
  },
};

export const listPublishingRequests: Operation<AdminDeps> = (app, deps) =>
  app.get(
    '/admin/api/publishing-requests',
    {
      config: { auth: STAFF, examples },
      schema: {
        operationId: 'listPublishingRequests',
        tags: ['admin'],
        summary: 'Requests for publishing access, with the facts of each account',
        description:
          'Oldest first (the queue to work through); `status` defaults to `pending`. Each request carries what the organiser wrote and the account’s facts: email and whether it is verified, name, phone, sign-up time, whether it may publish, and its events in each mode. Pages of `limit` (default 100, at most 1,000) with `startingAfter=<nextCursor>`; `count` is the total in that status.',
        querystring: Type.Object(
          {
            status: Type.Optional(
              Type.Union([Type.Literal('pending'), Type.Literal('granted'), Type.Literal('declined')], {
                description: 'Default `pending`.',
              }),
            ),
            ...PageQuery,
          },
          { additionalProperties: false },
        ),
        response: {
          200: answer(
            Type.Object({
              success: Type.Literal(true),
              data: Type.Array(ReviewedRequest),
              count: Type.Integer(),
              ...PageFields,
            }),
            'A page of requests for publishing access, oldest first, each with the account’s facts.',
          ),
          400: Type.Ref('Error'),
        },
      },
    },
    async (req) => {
      const page = await publishing.listRequests(deps.db, {
        status: req.query.status ?? 'pending',
        limit: parseLimit(req.query.limit),
        startingAfter: req.query.startingAfter,
      });
      const data = await Promise.all(
        page.items.map(async (r) => ({
          ...r,
          account: { ...r.account, events: await events.eventCountsByMode(deps.db, r.account.userId) },
        })),
      );
      return {
        success: true as const,
        data,
        count: page.count,
        hasMore: page.hasMore,
        nextCursor: page.nextCursor,
      };
    },
  );
