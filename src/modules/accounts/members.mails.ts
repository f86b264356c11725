// The invitation mail (docs/decisions/25-organiser-teams-and-roles.md). Its token is made when the
// mail is sent, so the plain token only ever exists in the mail; a retried job makes a new one
// and the older link stops working.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { escapeHtml } from '../../lib/html.js';
import type { Ids } from '../../lib/ids.js';
import type { Mailer } from '../mail/mailer.js';
import { mailHtml } from '../mail/mail-html.js';
import * as accounts from './accounts.repo.js';
import { sha256 } from './accounts.service.js';
import * as repo from './members.repo.js';

const ROLE_NAMES: Record<string, string> = {
  owner: 'an owner',
  admin: 'an admin',
  finance: 'finance',
  event_manager: 'an event manager',
  door: 'door staff',
  viewer: 'a viewer',
};

export async function sendInvitationJob(
  deps: { db: Kysely<Database>; clock: Clock; ids: Ids; baseUrl: string; mailer: Mailer },
  payload: { invitationId: string },
): Promise<void> {
  const inv = await repo.findInvitation(deps.db, payload.invitationId);
  const now = deps.clock.now();
  // Accepted, withdrawn or lapsed meanwhile: nothing to send.
  if (!inv || inv.accepted_at !== null || inv.revoked_at !== null || inv.expires_at <= now) return;
  const [org, inviter] = await Promise.all([
    accounts.findUserById(deps.db, inv.organisation_id),
    accounts.findUserById(deps.db, inv.invited_by),
  ]);
  if (!org) return;
  const token = deps.ids.secret(32);
  await repo.setInvitationToken(deps.db, inv.id, sha256(token));
  await deps.mailer.send(
    renderInvitationMail({
      baseUrl: deps.baseUrl,
      email: inv.email,
      organisation: org.org_name ?? org.name,
      inviter: inviter?.name ?? 'A member',
      role: ROLE_NAMES[inv.role] ?? inv.role,
      expiresAt: inv.expires_at,
      token,
    }),
  );
}

export function renderInvitationMail(m: {
  baseUrl: string;
  email: string;
  organisation: string;
  inviter: string;
  role: string;
  expiresAt: Date;
  token: string;
}) {
  const link = `${m.baseUrl}/dashboard/invitations/accept?token=${encodeURIComponent(m.token)}`;
  const subject = `You are invited to ${m.organisation}`;
  const lines = [
    `${m.inviter} invites you to join ${m.organisation} as ${m.role}.`,
    `Open this link and sign in, or sign up, with ${m.email} to accept:`,
    link,
    `The link works for ${m.email} only, once, until ${m.expiresAt.toISOString().slice(0, 10)}. If you did not expect it, ignore this mail.`,
  ];
  const html = mailHtml(
    subject,
    `<p>${escapeHtml(lines[0]!)}</p><p>${escapeHtml(lines[1]!)}</p>` +
      `<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p><p>${escapeHtml(lines[3]!)}</p>`,
  );
  return { to: m.email, subject, text: lines.join('\n\n'), html };
}
