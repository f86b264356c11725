import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { ANY_KEY, keyPrincipal } from '../../shared/auth.js';
import { countEventsByStatus } from '../events/events.service.js';
import * as accounts from './accounts.service.js';

const Session = Type.Object({
  userId: Type.String(),
  idToken: Type.String({ description: 'Send as `Authorization: Bearer <idToken>` to dashboard routes and event deletion.' }),
  expiresAt: Type.String({ format: 'date-time' }),
});

const Me = Type.Object({
  userId: Type.String(),
  email: Type.String(),
  name: Type.String(),
  phone: Type.Union([Type.String(), Type.Null()]),
  isOrganizer: Type.Boolean(),
  canPublish: Type.Boolean({ description: 'False until platform staff grant organiser access.' }),
  events: Type.Object({ total: Type.Integer(), draft: Type.Integer(), published: Type.Integer() }, { description: "Counts of this account's events in the key's mode." }),
  apiKeyId: Type.String({ description: 'The id of the key that made this request.' }),
});

export const accountsRoutes =
  (deps: Pick<Deps, 'db' | 'clock' | 'ids' | 'sessions'>): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/auth/signup',
      {
        config: { auth: { kind: 'public' } },
        schema: {
          tags: ['dashboard'],
          summary: 'Create an account',
          description: 'A new account has `isOrganizer: true` and `canPublish: false`. Emails are case-insensitive.',
          body: Type.Object(
            {
              email: Type.String({ maxLength: 254 }),
              password: Type.String({ minLength: 10, maxLength: 1024 }),
              name: Type.String({ minLength: 1, maxLength: 200 }),
              phone: Type.Optional(Type.String({ maxLength: 32 })),
            },
            { additionalProperties: false },
          ),
          response: { 201: Session, 409: Type.Ref('Error') },
        },
      },
      async (req, reply) => reply.code(201).send(await accounts.signup(deps, req.body)),
    );

    app.post(
      '/auth/login',
      {
        config: { auth: { kind: 'public' } },
        schema: {
          tags: ['dashboard'],
          summary: 'Log in and get a session token',
          body: Type.Object(
            { email: Type.String({ maxLength: 254 }), password: Type.String({ maxLength: 1024 }) },
            { additionalProperties: false },
          ),
          response: { 200: Session, 401: Type.Ref('Error') },
        },
      },
      async (req) => accounts.login(deps, req.body),
    );

    app.get(
      '/api/v1/me',
      {
        config: { auth: ANY_KEY },
        schema: { tags: ['identity'], summary: 'The account and key behind this request', response: { 200: Me } },
      },
      async (req) => {
        const p = keyPrincipal(req);
        const user = await accounts.getUser(deps.db, p.userId);
        return {
          userId: user.id,
          email: user.email,
          name: user.name,
          phone: user.phone,
          isOrganizer: user.is_organizer,
          canPublish: user.can_publish,
          events: await countEventsByStatus(deps.db, p.userId, p.mode),
          apiKeyId: p.keyId,
        };
      },
    );
  };
