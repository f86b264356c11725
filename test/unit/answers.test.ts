import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CustomFieldDoc } from '../../src/db/database.js';
import { validateAnswers } from '../../src/modules/registrations/answers.js';
import { AppError } from '../../src/lib/errors.js';

const field = (f: Partial<CustomFieldDoc> & { name: string }): CustomFieldDoc => ({
  label: f.name,
  type: 'text',
  required: false,
  options: null,
  ...f,
});
const refusal = (code: string) => (err: unknown) =>
  err instanceof AppError && err.status === 400 && err.code === code;

describe('validateAnswers', () => {
  const fields = [
    field({ name: 'company', required: true }),
    field({ name: 'age', type: 'number' }),
    field({ name: 'work', type: 'email' }),
    field({ name: 'size', type: 'select', options: ['S', 'M', 'L'] }),
    field({ name: 'terms', type: 'checkbox', required: true }),
    field({ name: 'newsletter', type: 'checkbox' }),
  ];

  it('keeps valid answers and drops empty optional ones', () => {
    const out = validateAnswers(fields, {
      company: 'Acme',
      age: 31,
      work: 'a@b.in',
      size: 'M',
      terms: true,
      newsletter: false,
    });
    assert.deepEqual(out, {
      company: 'Acme',
      age: 31,
      work: 'a@b.in',
      size: 'M',
      terms: true,
      newsletter: false,
    });
    assert.deepEqual(validateAnswers(fields, { company: 'Acme', terms: true, age: null, work: '' }), {
      company: 'Acme',
      terms: true,
    });
  });

  it('refuses a question the event did not ask', () => {
    assert.throws(
      () => validateAnswers(fields, { company: 'Acme', terms: true, shoe: 42 }),
      refusal('unknown_custom_field'),
    );
  });

  it('refuses a missing required answer, and an unticked required checkbox', () => {
    assert.throws(() => validateAnswers(fields, { terms: true }), refusal('missing_custom_field'));
    assert.throws(
      () => validateAnswers(fields, { company: '', terms: true }),
      refusal('missing_custom_field'),
    );
    assert.throws(
      () => validateAnswers(fields, { company: 'Acme', terms: false }),
      refusal('missing_custom_field'),
    );
  });

  it('checks each answer against its type', () => {
    const base = { company: 'Acme', terms: true };
    assert.throws(() => validateAnswers(fields, { ...base, age: '31' }), refusal('invalid_custom_field'));
    assert.throws(
      () => validateAnswers(fields, { ...base, age: Number.NaN }),
      refusal('invalid_custom_field'),
    );
    assert.throws(
      () => validateAnswers(fields, { ...base, work: 'not-an-email' }),
      refusal('invalid_custom_field'),
    );
    assert.throws(() => validateAnswers(fields, { ...base, size: 'XL' }), refusal('invalid_custom_field'));
    assert.throws(
      () => validateAnswers(fields, { ...base, newsletter: 'yes' }),
      refusal('invalid_custom_field'),
    );
    assert.throws(
      () => validateAnswers(fields, { company: 7, terms: true }),
      refusal('invalid_custom_field'),
    );
    assert.throws(
      () => validateAnswers(fields, { company: 'x'.repeat(2001), terms: true }),
      refusal('invalid_custom_field'),
    );
  });
});
