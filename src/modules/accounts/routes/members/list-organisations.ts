import { Type } from 'typebox';
import { sessionPrincipal } from '../../../../http/auth.js';
import { EX, type OperationExamples } from '../../../../http/examples.js';
import { answer, type Operation } from '../../../../http/operation.js';
import * as members from '../../members.service.js';
import { EventsSchema, type MembersRouteDeps, RoleSchema, SESSION } from './member.js';

const examples: OperationExamples = {
  responses: {
    '200': {
      success: true,
      current: EX.userId,
      data: [{ id: EX.userId, name: 'Asha Rao', role: 'owner', events: null }],
    },
  },
};

export const listOrganisations: Operation<MembersRouteDeps> = (app, deps) =>
  app.get(
    '/dashboard/api/organisations',
    {
      config: { auth: SESSION, examples },
      schema: {
        operationId: 'listOrganisations',
        tags: ['dashboard'],
        summary: 'The organisations the signed-in person belongs to',
        description:
          'With their role in each; `current` is the one this session works in (its own account’s by default; `POST /dashboard/api/organisations/current` chooses another).',
        response: {
          200: answer(
            Type.Object({
              success: Type.Literal(true),
              current: Type.Union([Type.String(), Type.Null()]),
              data: Type.Array(
                Type.Object({
                  id: Type.String(),
                  name: Type.String(),
                  role: RoleSchema,
                  events: EventsSchema,
                }),
              ),
            }),
            'The organisations.',
          ),
        },
      },
    },
    async (req) => {
      const s = sessionPrincipal(req);
      const rows = await members.listOrganisationsOf(deps.db, s.personId);
      return {
        success: true as const,
        current: s.role === undefined ? null : s.userId,
        data: rows.map((r) => ({
          id: r.organisation_id,
          name: r.org_name ?? r.name,
          role: r.role,
          events: r.event_ids,
        })),
      };
    },
  );
