import { Type } from 'typebox';
import { ping } from '../../../db/connect.js';
import type { OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { errorResponses } from '../../../http/schemas.js';
import { unavailable } from '../../../lib/errors.js';
import { OPEN, type OpsDeps } from './ops.js';

const examples: OperationExamples = {
  responses: { '200': { status: 'ready', storage: 'embedded', emailCheck: 'dns' } },
};

// What /readyz answers: the database's storage, and how email addresses are checked now.
const Readiness = Type.Object({
  status: Type.Literal('ready'),
  storage: Type.String(),
  emailCheck: Type.Union([Type.Literal('dns'), Type.Literal('off'), Type.Literal('reduced')], {
    description:
      'How email addresses are checked: `dns` (syntax, reserved domains, then DNS), `off` (`EMAIL_DNS_CHECK=false`: syntax and reserved domains only), `reduced` (the resolver denies `EMAIL_DNS_CANARY`, so it probably filters outside names: syntax and reserved domains only until it answers again).',
  }),
  detail: Type.Optional(
    Type.String({
      description: 'While `emailCheck` is `reduced`: what happened and what to change, in a sentence.',
    }),
  ),
});

export const getReadiness: Operation<OpsDeps> = (app, deps) =>
  app.get(
    '/readyz',
    {
      config: { auth: OPEN, examples },
      schema: {
        operationId: 'getReadiness',
        tags: ['operations'],
        summary: 'Readiness: the database answers',
        description:
          'Answers 200 when the database answers a query, 503 when it does not: for a load balancer’s readiness probe. `emailCheck` says how email addresses are checked: `dns` in full, `off` with `EMAIL_DNS_CHECK=false`, or `reduced` while the DNS resolver denies `EMAIL_DNS_CANARY` (asked at start and every 5 minutes; a resolver that filters outside names answers “no such domain” for every address, so addresses are then checked for syntax and reserved domains only), with `detail` saying so in a sentence. A reduced check still answers 200: the service is usable.',
        response: {
          200: answer(
            Readiness,
            'The database answers; `storage` names which one, `emailCheck` how addresses are checked (and `detail` why, when reduced).',
          ),
          ...errorResponses([503]),
        },
      },
    },
    async () => {
      try {
        await ping(deps.db);
      } catch {
        throw unavailable('database_unavailable', 'the database does not answer');
      }
      // A reduced email check leaves the service usable: still 200, with the detail.
      return { status: 'ready' as const, storage: deps.storage, ...deps.emailCanary.status() };
    },
  );
