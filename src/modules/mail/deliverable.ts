import { badRequest } from '../../lib/errors.js';

/** The deliverability check as the services receive it (see email-check.ts). */
export type CheckEmail = (
  email: string,
) => Promise<{ ok: true; email: string } | { ok: false; message: string }>;

/**
 * The address, normalised, when it can receive mail; otherwise 400 `undeliverable_email`
 * naming the field in `field`. Only a provably undeliverable address is refused. The
 * message is the check's own sentence: buyers read it at the field as it comes.
 */
export async function assertDeliverable(
  checkEmail: CheckEmail,
  email: string,
  field = 'email',
): Promise<string> {
  const r = await checkEmail(email);
  if (!r.ok) throw badRequest('undeliverable_email', r.message, { field });
  return r.email;
}
