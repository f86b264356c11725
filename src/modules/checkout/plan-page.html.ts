// Server-rendered HTML of the hosted plan page (/m/{slug}) and the steps after it: plain
// forms, so joining works without a script. The page's small script (plan-page.js) only
// sizes an embedding frame, tells the host page, and opens the live gateway's checkout.
import { escapeHtml as h } from '../../lib/html.js';
import { formatMoney } from '../../lib/money.js';
import type { PlanRow } from '../memberships/memberships.service.js';
import { planPrice } from '../memberships/membership-mail.js';
import {
  eventPageHref,
  jsonBlock,
  layout,
  paragraphs,
  RAZORPAY_CHECKOUT_JS,
  type Assets,
} from './layout.html.js';
import type { Strings } from './strings.js';

export interface PlanAssets extends Assets {
  /** The plan pages' own script. */
  planJs: string;
}

/** What every form of the plan pages carries on: how the page was opened. */
export interface Carried {
  key: string | null;
  origin: string | null;
  embed: 'inline' | 'overlay' | 'popup' | 'none';
  /** The event page the person came from (a members-only tier's "Join"), to go back to. */
  from: string | null;
}

export interface PlanPageBase {
  strings: Strings;
  assets: PlanAssets;
  plan: PlanRow;
  carried: Carried;
}

export type JoinErrors = Partial<Record<'name' | 'email' | 'phone' | 'form', string>>;

const planPath = (plan: PlanRow, step = '') => `/m/${encodeURIComponent(plan.slug)}${step}`;

/** The plan page's own address as it was opened (key, origin, embedding and the event kept). */
export function planPageHref(plan: PlanRow, c: Carried): string {
  const q = new URLSearchParams();
  if (c.key) q.set('key', c.key);
  if (c.origin) q.set('origin', c.origin);
  if (c.embed !== 'none') q.set('embed', c.embed);
  if (c.from) q.set('from', c.from);
  const query = q.toString();
  return `${planPath(plan)}${query ? `?${query}` : ''}`;
}

function hidden(c: Carried, extra: Record<string, string> = {}): string {
  const fields: Record<string, string | null> = {
    key: c.key,
    origin: c.origin,
    embed: c.embed === 'none' ? null : c.embed,
    from: c.from,
    ...extra,
  };
  return Object.entries(fields)
    .filter((e): e is [string, string] => e[1] !== null && e[1] !== '')
    .map(([k, v]) => `<input type="hidden" name="${h(k)}" value="${h(v)}">`)
    .join('\n');
}

/** "₹1,200 for 12 months", "₹500 every month", or "Free for 12 months". */
export function priceLine(s: Strings, plan: PlanRow): string {
  if (Number(plan.amount_paise) === 0) return s.plan.freeFor(plan.term_months ?? 0);
  return planPrice(plan);
}

function joinLabel(s: Strings, plan: PlanRow): string {
  if (plan.kind === 'recurring') return s.plan.joinRecurring;
  if (Number(plan.amount_paise) === 0) return s.plan.joinFree;
  return s.plan.joinPay(formatMoney(Number(plan.amount_paise)));
}

function page(
  p: PlanPageBase,
  title: string,
  body: string,
  config: Record<string, unknown> = {},
  head = '',
): string {
  const s = p.strings;
  const cfg = { slug: p.plan.slug, embed: p.carried.embed, origin: p.carried.origin, ...config };
  const main = `<main class="page" id="main">
<header>
<p class="kicker">${h(s.plan.kicker)}</p>
<h1>${h(title)}</h1>
${p.plan.mode === 'test' ? `<p class="badge">${h(s.testMode)}</p>` : ''}
</header>
${body}
</main>
${jsonBlock('svc-config', cfg)}`;
  return layout(s, s.plan.pageTitle(p.plan.name), p.assets, main, {
    bodyClass: `embed-${p.carried.embed}`,
    head: `${head}<script src="${h(p.assets.planJs)}" defer></script>`,
  });
}

function field(id: string, label: string, input: string, error: string | undefined, hint?: string): string {
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter((x) => x).join(' ');
  const attrs = `${described ? ` aria-describedby="${described}"` : ''}${error ? ' aria-invalid="true"' : ''}`;
  return `<div class="field"><label for="${id}">${h(label)}</label>${input.replace('<input ', `<input id="${id}"${attrs} `)}${hint ? `<p class="hint" id="${id}-hint">${h(hint)}</p>` : ''}${error ? `<p class="field-error" id="${id}-error">${h(error)}</p>` : ''}</div>`;
}

/** The plan and the form that joins it. */
export function renderPlanPage(
  p: PlanPageBase & { values?: Partial<Record<'name' | 'email' | 'phone', string>>; errors?: JoinErrors },
): string {
  const s = p.strings;
  const v = p.values ?? {};
  const e = p.errors ?? {};
  const plan = p.plan;
  const value = (x: string | undefined) => (x ? ` value="${h(x)}"` : '');
  const body = `<p class="plan-price" id="plan-price">${h(priceLine(s, plan))}</p>
${plan.description?.trim() ? `<section class="description" aria-label="${h(s.plan.about)}">${paragraphs(plan.description)}</section>` : ''}
<p>${h(s.plan.membersGet)}</p>
<form id="join-form" method="post" action="${h(planPath(plan, '/join'))}">
${hidden(p.carried)}
${e.form ? `<div id="form-error" class="error" role="alert">${h(e.form)}</div>` : ''}
<fieldset><legend>${h(s.yourDetails)}</legend>
${field('name', s.name, `<input name="name" autocomplete="name" required maxlength="200"${value(v.name)}>`, e.name)}
${field('email', s.email, `<input name="email" type="email" autocomplete="email" required maxlength="254"${value(v.email)}>`, e.email, s.plan.emailHint)}
${field('phone', s.phone, `<input name="phone" type="tel" autocomplete="tel" maxlength="32"${value(v.phone)}>`, e.phone)}
</fieldset>
${plan.kind === 'recurring' ? `<p class="hint" id="mandate-hint">${h(s.plan.mandateHint(priceLine(s, plan)))}</p>` : ''}
<button type="submit" id="join">${h(joinLabel(s, plan))}</button>
</form>
${p.carried.from ? `<p><a class="secondary-link" href="${h(eventPageHref(p.carried.from, p.carried))}">${h(s.backToEvent)}</a></p>` : ''}`;
  return page(p, plan.name, body);
}

/** A small form with one button that posts to a step of the plan page. */
function stepButton(
  p: PlanPageBase,
  step: string,
  fields: Record<string, string>,
  label: string,
  id: string,
  secondary = false,
): string {
  return `<form method="post" action="${h(planPath(p.plan, step))}" class="inline-form">${hidden(p.carried, fields)}<button type="submit" id="${id}"${secondary ? ' class="secondary"' : ''}>${h(label)}</button></form>`;
}

/** Test plans: the sandbox's stand-in for the gateway's checkout of a fixed term's order. */
export function renderSandboxPay(
  p: PlanPageBase & { order: { id: string; amount: number }; failed?: boolean },
): string {
  const s = p.strings;
  const body = `<section class="result sandbox" aria-labelledby="step-title">
<h2 id="step-title">${h(s.script.sandboxTitle)}</h2>
${p.failed ? `<p class="error" role="alert">${h(s.script.paymentFailed)} ${h(s.script.sandboxFailed)}.</p>` : ''}
<p>${h(s.script.sandboxIntro)}</p>
<p>${h(s.script.sandboxAmount)}: <strong>${h(formatMoney(p.order.amount))}</strong></p>
<div class="actions">
${stepButton(p, '/sandbox-pay', { order: p.order.id, outcome: 'success' }, s.script.sandboxPay, 'sandbox-pay')}
${stepButton(p, '/sandbox-pay', { order: p.order.id, outcome: 'failure' }, s.script.sandboxFail, 'sandbox-fail', true)}
<a class="secondary-link" href="${h(planPageHref(p.plan, p.carried))}">${h(s.script.sandboxCancel)}</a>
</div>
</section>`;
  return page(p, p.plan.name, body);
}

/** Live plans: the gateway's checkout, opened by the page's script; the gateway posts back to `callbackUrl`. */
export function renderLivePay(
  p: PlanPageBase & {
    order: { id: string; amount: number; currency: string };
    keyId: string;
    callbackUrl: string;
  },
): string {
  const s = p.strings;
  const body = `<section class="result waiting" aria-labelledby="step-title">
<h2 id="step-title">${h(s.checkoutTitle)}</h2>
<p>${h(s.plan.payIntro)} <strong>${h(formatMoney(p.order.amount))}</strong></p>
<p><button type="button" id="pay-now">${h(s.pay)}</button></p>
<div id="form-error" class="error" role="alert" tabindex="-1" hidden></div>
</section>`;
  const pay = {
    key: p.keyId,
    orderId: p.order.id,
    amount: p.order.amount,
    currency: p.order.currency,
    title: p.plan.name,
    callbackUrl: p.callbackUrl,
  };
  return page(p, p.plan.name, body, { pay }, `<script src="${RAZORPAY_CHECKOUT_JS}" defer></script>\n`);
}

/** A recurring plan: the mandate to approve (the gateway's page; in test mode, the sandbox's stand-in). */
export function renderMandate(
  p: PlanPageBase & { subscriptionId: string; authorisationUrl: string | null },
): string {
  const s = p.strings;
  const price = priceLine(s, p.plan);
  const approve =
    p.plan.mode === 'test'
      ? `<p>${h(s.plan.sandboxMandateIntro)}</p>
<div class="actions">
${stepButton(p, '/sandbox-mandate', { subscription: p.subscriptionId, outcome: 'approve' }, s.plan.sandboxApprove, 'sandbox-approve')}
${stepButton(p, '/sandbox-mandate', { subscription: p.subscriptionId, outcome: 'decline' }, s.plan.sandboxDecline, 'sandbox-decline', true)}
</div>`
      : p.authorisationUrl
        ? `<p class="actions"><a class="button-link" id="approve-mandate" href="${h(p.authorisationUrl)}" target="_blank" rel="noopener">${h(s.plan.approveMandate)}</a></p>
<p class="hint">${h(s.plan.afterApproval)}</p>`
        : `<p>${h(s.plan.mandateLinkMissing)}</p>`;
  const body = `<section class="result ${p.plan.mode === 'test' ? 'sandbox' : 'waiting'}" aria-labelledby="step-title">
<h2 id="step-title">${h(s.plan.mandateTitle)}</h2>
<p>${h(s.plan.mandateHint(price))}</p>
${approve}
</section>`;
  return page(p, p.plan.name, body);
}

/** The end of a join: a member now (or already), with the way back to the event they came from. */
export function renderJoined(
  p: PlanPageBase & { outcome: 'joined' | 'already' | 'not_paid' | 'declined'; email?: string | undefined },
): string {
  const s = p.strings;
  const text = {
    joined: [s.plan.joinedTitle, p.email ? s.plan.joinedMail(p.email) : s.plan.joinedNoMail],
    already: [s.plan.alreadyTitle, s.plan.already],
    not_paid: [s.script.paymentPendingTitle, s.plan.notPaid],
    declined: [s.plan.declinedTitle, s.plan.declined],
  }[p.outcome];
  const ok = p.outcome === 'joined' || p.outcome === 'already';
  const actions = [
    p.carried.from
      ? `<a class="button-link" id="back-to-event" href="${h(eventPageHref(p.carried.from, p.carried))}">${h(s.plan.backToEventMembers)}</a>`
      : '',
    ok
      ? ''
      : `<a class="secondary-link" href="${h(planPageHref(p.plan, p.carried))}">${h(s.plan.tryAgain)}</a>`,
    p.carried.embed === 'overlay' || p.carried.embed === 'popup'
      ? `<button type="button" data-svc-close hidden>${h(s.script.done)}</button>`
      : '',
  ].filter((x) => x);
  const body = `<section class="result ${ok ? 'confirmed' : 'waiting'}" aria-labelledby="step-title" id="result">
<h2 id="step-title">${h(text[0]!)}</h2>
<p>${h(text[1]!)}</p>
${ok ? `<p>${h(s.plan.codeHint)}</p>` : ''}
${actions.length ? `<div class="actions">${actions.join('\n')}</div>` : ''}
</section>`;
  return page(p, p.plan.name, body, p.outcome === 'joined' ? { joined: 'active' } : {});
}
