import { Type } from 'typebox';
import { ANY_KEY, keyPrincipal } from '../../../http/auth.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import type { Operation } from '../../../http/operation.js';
import { countEventsByStatus } from '../../events/events.service.js';
import * as accounts from '../accounts.service.js';
import { type AccountsDeps, EMAIL_VERIFIED } from './account.js';

const Me = Type.Object(
  {
    userId: Type.String(),
    apiKeyId: Type.String({ description: 'The id of the key that made this request.' }),
    mode: Type.Union([Type.Literal('test'), Type.Literal('live')], { description: "The key's mode." }),
    class: Type.Union([Type.Literal('full'), Type.Literal('checkout')], { description: "The key's class." }),
    email: Type.Optional(Type.String({ description: 'Full keys only.' })),
    name: Type.Optional(Type.String({ description: 'Full keys only.' })),
    phone: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'Full keys only.' })),
    emailVerified: Type.Optional(EMAIL_VERIFIED),
    isOrganizer: Type.Optional(Type.Boolean({ description: 'Full keys only.' })),
    canPublish: Type.Optional(
      Type.Boolean({ description: 'False until platform staff grant organiser access. Full keys only.' }),
    ),
    events: Type.Optional(
      Type.Object(
        { total: Type.Integer(), draft: Type.Integer(), published: Type.Integer() },
        { description: "Counts of this account's events in the key's mode. Full keys only." },
      ),
    ),
  },
  {
    description:
      'A full key reads the whole identity. A checkout key (which may sit in a web page) reads only the account id and its own facts: `userId`, `apiKeyId`, `mode`, `class`.',
  },
);

const examples: OperationExamples = {
  responses: {
    '200': {
      userId: EX.userId,
      apiKeyId: EX.keyId,
      mode: 'test',
      class: 'full',
      email: EX.organiserEmail,
      name: 'Test Organiser',
      phone: null,
      emailVerified: true,
      isOrganizer: true,
      canPublish: true,
      events: { total: 0, draft: 0, published: 0 },
    },
  },
};

export const getMe: Operation<AccountsDeps> = (app, deps) =>
  app.get(
    '/api/v1/me',
    {
      config: { auth: ANY_KEY, examples },
      schema: {
        operationId: 'getMe',
        tags: ['identity'],
        summary: 'The account and key behind this request',
        description:
          'The account, mode and key class behind the `x-api-key` of this request. A checkout key sees only what a browser may see.',
        response: { 200: Me },
      },
    },
    async (req) => {
      const p = keyPrincipal(req);
      const keyFacts = { userId: p.userId, apiKeyId: p.keyId, mode: p.mode, class: p.keyClass };
      // A checkout key may be read by anyone who opens the page it sits in.
      if (p.keyClass !== 'full') return keyFacts;
      const user = await accounts.getUser(deps.db, p.userId);
      return {
        ...keyFacts,
        email: user.email,
        name: user.name,
        phone: user.phone,
        emailVerified: accounts.isEmailVerified(user),
        isOrganizer: user.is_organizer,
        canPublish: user.can_publish,
        events: await countEventsByStatus(deps.db, p.userId, p.mode),
      };
    },
  );
