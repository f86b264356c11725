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

/** Node's codes of a connection refused, reset or cut. */
const LOST_SOCKET = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT']);
/** Codes that mean the database is away only when a connect got them (a Unix socket's file is missing while the server restarts). */
const CONNECT_FAILED = new Set(['ENOENT', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * Whether the connection to the database was lost under the statement, or could not be opened:
 * the server restarted or failed over (refused, no socket, 57P03 starting up, 57P01 and 57P02
 * shutting down), the backend was terminated, the network cut it, a connect timed out, or the
 * pool is backing off after a failed connect (08001, src/db/connect-gate.ts). The statement's transaction
 * did not commit (a lost COMMIT is the one case in doubt; the paths that move money claim first,
 * so a retry finds the claim).
 */
export function isConnectionLost(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown; syscall?: unknown } | null;
  // Node's codes first: EPIPE has the shape of a SQLSTATE.
  if (typeof e?.code === 'string' && LOST_SOCKET.has(e.code)) return true;
  if (typeof e?.code === 'string' && CONNECT_FAILED.has(e.code) && e.syscall === 'connect') return true;
  const code = pgCode(err);
  if (code !== undefined)
    return code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03';
  return (
    typeof e?.message === 'string' &&
    /^(Connection terminated|Client has encountered a connection error|Connection terminated unexpectedly)/.test(
      e.message,
    )
  );
}

/** Maps lock and statement timeouts, deadlocks and serialisation failures to 409; unstorable characters to 400; a lost connection to 503. */
export function mapPgError(err: unknown): AppError | undefined {
  if (isConnectionLost(err))
    return appError(
      'database_unavailable',
      'the connection to the database was lost under this request; retry shortly (with the same Idempotency-Key, a retry cannot do it twice)',
      {},
      { 'Retry-After': '2' },
    );
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
