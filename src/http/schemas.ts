// Schemas shared by many routes.
import { Type, type TSchema } from 'typebox';

export const ErrorBody = Type.Object(
  {
    error: Type.String({ description: 'A human sentence naming the problem.' }),
    code: Type.String({ description: 'A stable snake_case word clients can branch on.' }),
    field: Type.Optional(
      Type.String({
        description:
          'When the problem is in one input, its path: `email`, `name`, `teamMembers[1].email`, `customFields.<name>`, `promoCode`, `membershipId`, `ticketType`, `subEventId`.',
      }),
    ),
  },
  { additionalProperties: true, $id: 'Error', title: 'Error' },
);

export const ErrorRef = Type.Ref('Error');

/** Error responses every route may answer, keyed by status. */
export function errorResponses(statuses: readonly number[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = {};
  for (const s of statuses) out[s] = { ...ErrorRef, description: errorDescriptions[s] ?? 'Error' } as TSchema;
  return out;
}

const errorDescriptions: Record<number, string> = {
  400: 'Malformed request: a field is missing, has the wrong type, or breaks a rule.',
  401: 'No credentials, or credentials not recognised.',
  402: 'The payment could not be verified at the gateway.',
  403: 'Credentials valid but not allowed here.',
  404: 'No such object for this account and mode.',
  405: 'The path exists but not with this method.',
  409: 'The state changed or conflicts with the request.',
  413: 'The request body or the audience is too large.',
  415: 'Content-Type is not application/json.',
  422: 'The Idempotency-Key was used with another request.',
  429: 'Rate limited; see Retry-After.',
  500: 'Internal error; the request id is in the logs.',
  502: 'The payment gateway failed or timed out; nothing changed.',
  503: 'A dependency is not configured or not available.',
};

export const Success = Type.Literal(true);

/** A value or null. */
export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

/** A list answer: `{ success: true, data: [item…], count }`. */
export const ListOf = <T extends TSchema>(item: T) =>
  Type.Object({ success: Type.Literal(true), data: Type.Array(item), count: Type.Integer() });
