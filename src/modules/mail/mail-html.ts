// Every mail's HTML is a whole document: a language (mail clients and screen readers read it
// in the right voice) and a title (shown by clients that open the mail in a tab, and by the
// test inbox), around the body each mail writes.
import { escapeHtml } from '../../lib/html.js';

/** The language every mail is written in. */
export const MAIL_LANG = 'en-IN';

/** A mail's HTML: `<html lang>`, a `<title>`, the body (already HTML). */
export function mailHtml(title: string, body: string): string {
  return `<!doctype html><html lang="${MAIL_LANG}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body style="font-family:sans-serif">
${body}
</body></html>`;
}
