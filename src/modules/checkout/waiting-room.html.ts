// The waiting room's steps on the hosted page (docs/decisions/26-a-fair-waiting-room.md), shown
// before the booking form while the event's room is on: join (email, and a WhatsApp number where
// the service sends WhatsApp), the code, then the waiting screen; sold out, the waitlist. The page
// script (assets/checkout-queue.js) shows one step at a time; the booking form stays hidden
// until the queue admits the buyer.
import { escapeHtml as h } from '../../lib/html.js';
import { errorSlot } from './session-choices.html.js';
import type { Strings } from './strings.js';

export interface RoomFacts {
  opensAt: string | null;
  /** The service sends WhatsApp: the code may go there. */
  whatsapp: boolean;
}

function joinStep(s: Strings, room: RoomFacts): string {
  const q = s.queue;
  const whatsapp = room.whatsapp
    ? `<div class="field"><label for="queue-phone">${h(q.phone)}</label><input id="queue-phone" type="tel" autocomplete="tel" maxlength="32">${errorSlot('queue-phone')}</div>
<fieldset class="choices inline" id="queue-channel"><legend>${h(q.channel)}</legend>
<label><input type="radio" name="queueChannel" value="email" checked> ${h(q.byEmail)}</label>
<label><input type="radio" name="queueChannel" value="whatsapp"> ${h(q.byWhatsapp)}</label>
</fieldset>`
    : '';
  return `<form id="queue-join" novalidate>
<div class="field"><label for="queue-email">${h(q.email)}</label><input id="queue-email" type="email" autocomplete="email" required maxlength="254" aria-describedby="queue-email-hint"><p class="hint" id="queue-email-hint">${h(q.emailHint)}</p>${errorSlot('queue-email')}</div>
${whatsapp}
<button type="submit" id="queue-join-submit">${h(q.join)}</button>
</form>
<form id="queue-verify" novalidate hidden>
<div class="field"><label for="queue-code">${h(q.code)}</label><input id="queue-code" inputmode="numeric" autocomplete="one-time-code" maxlength="6" pattern="[0-9]{6}" aria-describedby="queue-code-hint"><p class="hint" id="queue-code-hint">${h(q.codeHint)}</p>${errorSlot('queue-code')}</div>
<p class="actions"><button type="submit" id="queue-verify-submit">${h(q.checkCode)}</button> <button type="button" class="secondary" id="queue-new-code">${h(q.newCode)}</button></p>
</form>`;
}

function waitStep(s: Strings): string {
  const q = s.queue;
  const row = (id: string, label: string) =>
    `<div id="queue-${id}-row"><dt>${h(label)}</dt><dd id="queue-${id}">—</dd></div>`;
  return `<div id="queue-wait" hidden>
<dl class="facts queue-facts">
${row('position', q.position)}
${row('ahead', q.ahead)}
${row('estimate', q.wait)}
${row('opens', q.opensAt)}
</dl>
<p class="queue-countdown" id="queue-countdown" hidden></p>
<p class="hint" id="queue-prequeue-note" hidden>${h(q.prequeueNote)}</p>
</div>`;
}

/** The room's section; `waitlist` is the event's waitlist form, offered once the sale is sold out. */
export function renderWaitingRoom(s: Strings, room: RoomFacts, waitlist: string): string {
  const q = s.queue;
  return `<section id="queue" class="queue" aria-labelledby="queue-title">
<h2 id="queue-title">${h(q.title)}</h2>
<p id="queue-intro">${h(q.intro)}</p>
<p class="queue-status" id="queue-status" role="status" aria-live="polite"></p>
<div id="queue-error" class="error" role="alert" tabindex="-1" hidden></div>
${joinStep(s, room)}
${waitStep(s)}
<div id="queue-sold-out" hidden><h3>${h(q.soldOutTitle)}</h3><p>${h(q.soldOut)}</p>${waitlist}</div>
<div id="queue-closed" hidden><h3>${h(q.closedTitle)}</h3><p>${h(q.closed)}</p></div>
</section>`;
}
