// The Test inbox: the mails test mode kept instead of sending, newest first, and each one as
// it would be sent — its HTML body in a sandboxed frame (no script, no same-origin access),
// its text, and its attachments to download.
import { html, type Html } from '../html.js';
import { when } from '../layout.js';

export interface InboxRow {
  id: string;
  to: readonly string[];
  subject: string;
  attachments: readonly string[];
  createdAt: string;
}

export interface InboxMail {
  id: string;
  to: readonly string[];
  subject: string;
  text: string;
  html: string | null;
  createdAt: string;
  files: { index: number; filename: string; contentType: string }[];
  /** Attachments of a mail kept before their bytes were: named only. */
  namedOnly: readonly string[];
}

export const mailPath = (id: string, rest = '') => `/dashboard/test-inbox/${encodeURIComponent(id)}${rest}`;

export function inboxPage(
  rows: InboxRow[],
  count: number,
  pages: { next: string | null; first: boolean },
): Html {
  return html`<p>The mails your test events, bookings and broadcasts would have sent, exactly as they would be sent. Test mode sends no mail: this is where it goes. Mails are kept for 30 days.</p>
${
  rows.length === 0
    ? html`<p class="muted" id="inbox-empty">No test mails${pages.first ? ' yet. Book a test event from its preview (Events → an event → Open the preview) and its ticket mail appears here.' : ' on this page.'}</p>`
    : html`<div class="table-wrap"><table class="cards-narrow" id="inbox"><caption class="muted">${count} test ${count === 1 ? 'mail' : 'mails'}, newest first</caption>
<thead><tr><th scope="col">Subject</th><th scope="col">To</th><th scope="col">When</th><th scope="col">Files</th></tr></thead>
<tbody>${rows.map(
        (
          m,
        ) => html`<tr><th scope="row" data-label="Subject"><a href="${mailPath(m.id)}">${m.subject}</a></th><td data-label="To" class="mono">${m.to.join(', ')}</td>
<td data-label="When" class="nowrap">${when(m.createdAt)}</td><td data-label="Files">${m.attachments.length === 0 ? '—' : m.attachments.join(', ')}</td></tr>`,
      )}</tbody></table></div>`
}
<nav class="pager" aria-label="Test inbox pages">
${pages.first ? '' : html`<a href="/dashboard/test-inbox">Newest</a>`}
${pages.next ? html`<a href="/dashboard/test-inbox?after=${encodeURIComponent(pages.next)}" rel="next">Older</a>` : ''}
</nav>`;
}

export function mailPage(m: InboxMail): Html {
  return html`<p><a href="/dashboard/test-inbox">← Test inbox</a></p>
<section class="card" aria-label="About this mail">
<dl class="facts">
<dt>To</dt><dd class="mono">${m.to.join(', ')}</dd>
<dt>Subject</dt><dd>${m.subject}</dd>
<dt>Kept</dt><dd>${when(m.createdAt)}</dd>
</dl>
</section>
${
  m.files.length > 0 || m.namedOnly.length > 0
    ? html`<section aria-labelledby="mail-files-h"><h2 id="mail-files-h">Attachments</h2>
<ul class="files">${m.files.map(
        (f) =>
          html`<li><a href="${mailPath(m.id, `/files/${f.index}`)}" download="${f.filename}">${f.filename}</a> <span class="muted">${f.contentType}</span></li>`,
      )}${m.namedOnly.map((name) => html`<li>${name} <span class="muted">(kept before attachments were: named only)</span></li>`)}</ul>
</section>`
    : ''
}
${
  m.html !== null
    ? html`<section aria-labelledby="mail-html-h"><h2 id="mail-html-h">As it would be sent</h2>
<iframe class="mail-frame" id="mail-frame" sandbox="allow-popups allow-popups-to-escape-sandbox" src="${mailPath(m.id, '/body')}" title="The mail ${m.subject}, as it would be sent"></iframe>
</section>
<details><summary>Plain text version</summary><pre class="mail-text">${m.text}</pre></details>`
    : html`<section aria-labelledby="mail-text-h"><h2 id="mail-text-h">As it would be sent</h2><pre class="mail-text" id="mail-text">${m.text}</pre></section>`
}`;
}

/**
 * A kept HTML body made ready for its sandboxed frame: images the mail carries inline
 * (`cid:`) become data URLs, and links open outside the frame. The body itself is the
 * service's own rendering (every value in it escaped when it was made); the frame's
 * sandbox and policy run no script whatever it holds.
 */
export function framedMailHtml(
  body: string,
  inline: ReadonlyMap<string, { contentType: string; content: Buffer }>,
): string {
  const withImages = body.replace(/(["'])cid:([^"']+)\1/g, (whole, quote: string, cid: string) => {
    const file = inline.get(cid);
    if (!file || !/^image\/(png|jpeg|gif|webp)$/.test(file.contentType)) return whole;
    return `${quote}data:${file.contentType};base64,${file.content.toString('base64')}${quote}`;
  });
  return withImages.replace(/<a(\s)/gi, '<a target="_blank" rel="noopener noreferrer"$1');
}
