// Answers to an event's own questions. Pure.
import type { CustomFieldDoc } from '../../db/database.js';
import { badRequest } from '../../shared/errors.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function validateAnswers(fields: readonly CustomFieldDoc[], answers: Record<string, unknown>): Record<string, unknown> {
  const byName = new Map(fields.map((f) => [f.name, f]));
  for (const key of Object.keys(answers)) {
    if (!byName.has(key)) throw badRequest('unknown_custom_field', `customFields.${key} is not a question of this event`);
  }
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v = answers[f.name];
    if (v === undefined || v === null || v === '') {
      if (f.required) throw badRequest('missing_custom_field', `customFields.${f.name} is required`);
      continue;
    }
    const where = `customFields.${f.name}`;
    switch (f.type) {
      case 'text':
        if (typeof v !== 'string' || v.length > 2000) throw badRequest('invalid_custom_field', `${where} must be text of at most 2000 characters`);
        break;
      case 'number':
        if (typeof v !== 'number' || !Number.isFinite(v)) throw badRequest('invalid_custom_field', `${where} must be a number`);
        break;
      case 'email':
        if (typeof v !== 'string' || !EMAIL.test(v)) throw badRequest('invalid_custom_field', `${where} must be an email address`);
        break;
      case 'checkbox':
        if (typeof v !== 'boolean') throw badRequest('invalid_custom_field', `${where} must be true or false`);
        if (f.required && v !== true) throw badRequest('missing_custom_field', `${where} must be ticked`);
        break;
      case 'select':
        if (typeof v !== 'string' || !(f.options ?? []).includes(v)) {
          throw badRequest('invalid_custom_field', `${where} must be one of ${(f.options ?? []).map((o) => JSON.stringify(o)).join(', ')}`);
        }
        break;
    }
    out[f.name] = v;
  }
  return out;
}
