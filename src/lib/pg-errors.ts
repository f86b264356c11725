// PostgreSQL errors that are the caller's doing or a lost race become domain errors
// here, in one place; anything else stays an internal fault.
import { AppError, appError } from './errors.js';

interface PgError {
  code?: string;
  constraint?: string;
}

export function pgCode(err: unknown): string | undefined {
  const code = (err as PgError | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  if (pgCode(err) !== '23505') return false;
  return constraint === undefined || (err as PgError).constraint === constraint;
}

/** Maps lock and statement timeouts, deadlocks and serialisation failures to 409; unstorable characters to 400. */
export function mapPgError(err: unknown): AppError | undefined {
  switch (pgCode(err)) {
    case '55P03': // lock_not_available (lock_timeout)
    case '40P01': // deadlock_detected
    case '40001': // serialization_failure
    case '57014': // query_canceled (statement_timeout)
      return appError('busy', 'the resource is busy; retry shortly', {}, { 'Retry-After': '1' });
    case '22021': // character_not_in_repertoire: a NUL byte in text
    case '22P05': // untranslatable_character: an unpaired surrogate escape in JSON
      return appError(
        'invalid_characters',
        'the request holds a character that cannot be stored (a NUL byte or an unpaired UTF-16 surrogate)',
      );
    default:
      return undefined;
  }
}
