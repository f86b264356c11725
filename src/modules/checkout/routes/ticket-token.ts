// What the hosted page's order summary and ticket operations share: amounts in paise, and the
// buyer's ticket token that is the ticket operations' capability.
import { Type } from 'typebox';
import { Slug } from '../page-context.js';

export const Paise = (description: string) => Type.Integer({ description: `${description} Paise.` });
const TicketToken = Type.String({
  maxLength: 120,
  description:
    'The `ticket` token the page’s register answer gave (the same token as the attendee page link, `/t/{token}`, in the ticket mail).',
});
export const TicketParams = Type.Object({ slug: Slug.properties.slug, token: TicketToken });
export const TOKEN_AUTH =
  'No credentials: the token is the capability. It names the booking and is checked (constant time) against the booking’s current ticket id, so a transfer retires it; a token of another event, or a made-up one, answers 404. Rate limited per IP.';
