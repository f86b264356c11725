// Answers to an event's own questions. Pure, and linear in the size of the input.
// A question may be named anything (`constructor`, `__proto__`, `toString` …): answers
// are read through own-property checks only and written with `defineProperty`, so a
// name never reaches an object's prototype.
import type { CustomFieldDoc } from '../../db/database.js';
import { badRequest } from '../../lib/errors.js';
import { checkSyntax } from '../mail/email-check.js';

/** The longest text answer kept, in characters (the schema says the same). */
export const MAX_ANSWER_LENGTH = 2000;

const own = (o: Record<string, unknown>, k: string) => Object.prototype.hasOwnProperty.call(o, k);

export function validateAnswers(
  fields: readonly CustomFieldDoc[],
  answers: Record<string, unknown>,
): Record<string, unknown> {
  const byName = new Map(fields.map((f) => [f.name, f]));
  for (const key of Object.keys(answers)) {
    if (!byName.has(key))
      throw badRequest(
        'unknown_custom_field',
        `customFields.${key.slice(0, 60)} is not a question of this event`,
        { field: `customFields.${key.slice(0, 60)}` },
      );
  }
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v = own(answers, f.name) ? answers[f.name] : undefined;
    if (v === undefined || v === null || v === '') {
      if (f.required)
        throw badRequest('missing_custom_field', `customFields.${f.name} is required`, {
          field: `customFields.${f.name}`,
        });
      continue;
    }
    const where = `customFields.${f.name}`;
    if (typeof v === 'string' && v.length > MAX_ANSWER_LENGTH)
      throw badRequest('invalid_custom_field', `${where} must be at most ${MAX_ANSWER_LENGTH} characters`, {
        field: where,
      });
    checkAnswer(f, v, where);
    Object.defineProperty(out, f.name, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** One given answer against its question's type (a required checkbox must be ticked). */
function checkAnswer(f: CustomFieldDoc, v: unknown, where: string): void {
  switch (f.type) {
    case 'text':
      if (typeof v !== 'string')
        throw badRequest(
          'invalid_custom_field',
          `${where} must be text of at most ${MAX_ANSWER_LENGTH} characters`,
          { field: where },
        );
      break;
    case 'number':
      if (typeof v !== 'number' || !Number.isFinite(v))
        throw badRequest('invalid_custom_field', `${where} must be a number`, { field: where });
      break;
    case 'email':
      // The mail module's syntax check: plain local@domain, linear time, no regex backtracking.
      if (typeof v !== 'string' || !checkSyntax(v).ok)
        throw badRequest('invalid_custom_field', `${where} must be an email address`, { field: where });
      break;
    case 'checkbox':
      if (typeof v !== 'boolean')
        throw badRequest('invalid_custom_field', `${where} must be true or false`, { field: where });
      if (f.required && v !== true)
        throw badRequest('missing_custom_field', `${where} must be ticked`, { field: where });
      break;
    case 'select':
      if (typeof v !== 'string' || !(f.options ?? []).includes(v)) {
        throw badRequest(
          'invalid_custom_field',
          `${where} must be one of ${(f.options ?? []).map((o) => JSON.stringify(o)).join(', ')}`,
          { field: where },
        );
      }
      break;
  }
}
