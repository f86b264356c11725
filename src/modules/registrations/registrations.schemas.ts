// Request schemas that more than one module's routes take: the answers to an event's
// questions (the API's registration and the hosted page's JSON call). Kept out of the routes
// file so other modules' routes can use them.
import { Type } from 'typebox';
import { MAX_ANSWER_LENGTH } from './answers.js';

/** Answers keyed by question name; any name, `__proto__` and `constructor` included. */
export const CustomFieldAnswers = Type.Record(
  Type.String({ maxLength: 50 }),
  Type.Union([Type.String({ maxLength: MAX_ANSWER_LENGTH }), Type.Number(), Type.Boolean(), Type.Null()]),
  {
    maxProperties: 50,
    description: `Answers keyed by the event’s customFields names (at most 50; text at most ${MAX_ANSWER_LENGTH} characters). Any name works, \`constructor\` and \`__proto__\` included.`,
  },
);
