// What the hosted page's registration asks of a buyer while the event's waiting room is on
// (docs/decisions/26-a-fair-waiting-room.md): a valid admission token for this event and email.
import type { OnSaleDoc } from '../../db/database.js';
import { forbidden } from '../../lib/errors.js';
import { admissionVerdict } from './queue-tokens.js';

/** 403 `admission_required` unless the room is off or `token` admits `email` to this event at `now`. */
export function assertAdmitted(
  secretsKey: Buffer,
  event: { id: string; on_sale: OnSaleDoc | null },
  token: string | undefined,
  email: string,
  now: Date,
): void {
  if (event.on_sale?.waitingRoom.enabled !== true) return;
  if (!token)
    throw forbidden(
      'admission_required',
      'this sale has a waiting room: join the queue and book with its admission token',
      {
        field: 'admissionToken',
      },
    );
  const verdict = admissionVerdict(secretsKey, token, event.id, email, now);
  if (verdict === 'valid') return;
  throw forbidden(
    'admission_required',
    verdict === 'expired'
      ? 'your admission has lapsed: it lets you book for sessionMinutes after it is given'
      : 'this admission token is not for this event and email',
    { field: 'admissionToken' },
  );
}
