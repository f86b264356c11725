// Accounts: signup, login, staff, organiser access. HTTP-free.
import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../db/pg-errors.js';
import type { Database } from '../../db/database.js';
import type { Clock } from '../../shared/clock.js';
import { appError, badRequest, conflict, notFound, unauthorized } from '../../shared/errors.js';
import type { Ids } from '../../shared/ids.js';
import * as repo from './accounts.repo.js';
import { hashPassword, verifyPassword } from './passwords.js';
import type { SessionSigner } from './sessions.js';

export interface AccountDeps {
  db: Kysely<Database>;
  clock: Clock;
  ids: Ids;
  sessions: SessionSigner;
}

const EMAIL_SYNTAX = /^[^\s@"<>()\[\],;:\\]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;

export function normaliseEmail(email: string): string {
  const e = email.trim().toLowerCase();
  if (e.length > 254 || !EMAIL_SYNTAX.test(e)) throw badRequest('invalid_email', 'email is not a valid address');
  return e;
}

export async function signup(
  deps: AccountDeps,
  input: { email: string; password: string; name: string; phone?: string | undefined },
): Promise<{ userId: string; idToken: string; expiresAt: string }> {
  const email = normaliseEmail(input.email);
  const name = input.name.trim();
  if (name === '') throw badRequest('invalid_name', 'name must not be empty');
  if (input.password.length < 10) throw badRequest('weak_password', 'password must be at least 10 characters');
  const existing = await repo.findUserByEmail(deps.db, email);
  if (existing) throw conflict('email_taken', 'an account with this email already exists');
  const userId = deps.ids.make('usr', 12);
  try {
    await repo.insertUser(deps.db, {
      id: userId,
      email,
      passwordHash: await hashPassword(input.password),
      name,
      phone: input.phone?.trim() || null,
      createdAt: deps.clock.now(),
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('email_taken', 'an account with this email already exists');
    throw err;
  }
  return { userId, ...(await deps.sessions.issue(userId)) };
}

export async function login(
  deps: AccountDeps,
  input: { email: string; password: string },
): Promise<{ userId: string; idToken: string; expiresAt: string }> {
  const user = await repo.findUserByEmail(deps.db, input.email.trim().toLowerCase());
  // Hash even for an unknown email so timing does not tell which emails exist.
  const ok = await verifyPassword(input.password, user?.password_hash ?? DUMMY_HASH);
  if (!user || !ok) throw unauthorized('invalid_credentials', 'email or password is wrong');
  return { userId: user.id, ...(await deps.sessions.issue(user.id)) };
}

const DUMMY_HASH = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

export async function getUser(db: Kysely<Database>, userId: string) {
  const user = await repo.findUserById(db, userId);
  if (!user) throw appError('account_not_found', 'no such account');
  return user;
}

export const findUser = (db: Kysely<Database>, userId: string) => repo.findUserById(db, userId);
export const findUserByEmail = (db: Kysely<Database>, email: string) => repo.findUserByEmail(db, email.trim().toLowerCase());

export async function setOrganiserAccess(db: Kysely<Database>, userId: string, canPublish: boolean) {
  if (!(await repo.setCanPublish(db, userId, canPublish))) throw notFound('no such account', 'account_not_found');
  return getUser(db, userId);
}

export const countUsers = repo.countUsers;
export const isEmailVerified = repo.isEmailVerified;
