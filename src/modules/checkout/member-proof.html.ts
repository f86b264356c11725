// A members-only tier's proof on the hosted event page (docs/decisions/28-a-persons-day.md): a code mailed to
// the buyer's address, the membership id for those who have it at hand, and the plans to join.
// The error slots are those page.html.ts's fields have; the page script fills them.
import { escapeHtml as h } from '../../lib/html.js';
import type { Strings } from './strings.js';

/** What of the event page the proof needs: how it was opened, and the plans to join. */
export interface ProofPage {
  slug: string;
  key: string | null;
  origin: string | null;
  embed: 'inline' | 'overlay' | 'popup' | 'none';
  joinPlans?: { name: string; slug: string }[] | undefined;
}

/** The plan page a "Join" link opens: as this page was opened (key, origin, embedding), and back to this event after. */
export function planPageLink(
  planSlug: string,
  p: Pick<ProofPage, 'key' | 'origin' | 'embed' | 'slug'>,
): string {
  const q = new URLSearchParams();
  if (p.key) q.set('key', p.key);
  if (p.origin) q.set('origin', p.origin);
  if (p.embed !== 'none') q.set('embed', p.embed);
  q.set('from', p.slug);
  return `/m/${encodeURIComponent(planSlug)}?${q}`;
}

/**
 * A members-only tier's proof: a code mailed to the buyer's address (the page script asks for
 * it and checks it), a membership id for those who have one at hand, and, for those who are
 * not members yet, the plans that make them one.
 */
export function memberProof(s: Strings, p: ProofPage): string {
  const plans = p.joinPlans ?? [];
  const join =
    plans.length === 0
      ? ''
      : plans.length === 1
        ? `<p class="join-plan" id="join-plans">${h(s.notMember)} <a href="${h(planPageLink(plans[0]!.slug, p))}">${h(s.joinPlan(plans[0]!.name))}</a></p>`
        : `<div class="join-plan" id="join-plans"><p>${h(s.notMember)} ${h(s.joinOneOf)}</p><ul>${plans.map((pl) => `<li><a href="${h(planPageLink(pl.slug, p))}">${h(s.joinPlan(pl.name))}</a></li>`).join('')}</ul></div>`;
  return `<div class="member-proof" id="membership-field" hidden>
<p class="hint" id="member-code-intro">${h(s.memberCodeIntro)}</p>
<p><button type="button" class="secondary" id="member-code-send">${h(s.script.sendCode)}</button></p>
<p class="hint" id="member-code-status" role="status" aria-live="polite"></p>
<div class="field" id="member-code-entry" hidden><label for="member-code">${h(s.memberCode)}</label><div class="promo-row"><input id="member-code" inputmode="numeric" autocomplete="one-time-code" maxlength="8" aria-describedby="member-code-intro"><button type="button" class="secondary" id="member-code-check">${h(s.script.checkCode)}</button></div><p class="field-error" id="member-code-error" hidden></p></div>
<details class="member-id"><summary>${h(s.haveMembershipId)}</summary><div class="field"><label for="membership">${h(s.membershipId)}</label><input id="membership" name="membershipId" maxlength="100" autocomplete="off" aria-describedby="membership-hint"><p class="hint" id="membership-hint">${h(s.membershipHint)}</p><p class="field-error" id="membership-error" hidden></p></div></details>
${join}
</div>`;
}
