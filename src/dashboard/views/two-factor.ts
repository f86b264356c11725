// Two-factor sign-in (docs/decisions/25-organiser-teams-and-roles.md): the code step of signing in,
// the person's two-factor page, enrolment with its QR code, and the recovery codes shown once.
import { html, type Html } from '../html.js';
import { bare, csrfField } from '../layout.js';

const problem = (error: string | null) =>
  error ? html`<div class="flash error" role="alert"><p>${error}</p></div>` : '';

/** After the password: the app's code, or a recovery code. */
export function codePage(csrf: string, v: { next: string; error: string | null }): string {
  return bare(
    'Two-factor sign-in',
    html`${problem(v.error)}
<form method="post" action="/dashboard/login/two-factor" class="card">${csrfField(csrf)}<input type="hidden" name="next" value="${v.next}">
<label for="t-code">6-digit code from your authenticator app</label><input id="t-code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required autofocus>
<p><button>Verify</button></p>
</form>
<form method="post" action="/dashboard/login/two-factor" class="card" aria-labelledby="t-rec-h">${csrfField(csrf)}<input type="hidden" name="next" value="${v.next}">
<h2 id="t-rec-h">No access to your app?</h2>
<label for="t-recovery">Recovery code <span class="hint">each works once</span></label><input id="t-recovery" name="recoveryCode" autocomplete="off" maxlength="40" required>
<p><button class="secondary">Use recovery code</button></p>
</form>
<p><a href="/dashboard/login">Back to sign in</a></p>`,
  );
}

const proofFields = (csrf: string, id: string) => html`${csrfField(csrf)}
<label for="${id}-code">Code from your app</label><input id="${id}-code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6">
<label for="${id}-password">or your password</label><input id="${id}-password" name="password" type="password" autocomplete="current-password" maxlength="1024">`;

/** The person's two-factor page; `canRequire`: an owner or admin, who sets the organisation's rule. */
export function twoFactorPage(
  csrf: string,
  v: {
    enabled: boolean;
    recoveryCodesLeft: number;
    enrolmentRequired: boolean;
    required: boolean;
    canRequire: boolean;
  },
): Html {
  const mine = v.enabled
    ? html`<section class="card" aria-labelledby="tf-h"><h2 id="tf-h">Two-factor sign-in is on</h2>
<p>Signing in asks for a code from your authenticator app after your password. Recovery codes left: <strong>${String(v.recoveryCodesLeft)}</strong>.</p>
<form method="post" action="/dashboard/two-factor/recovery-codes">${proofFields(csrf, 'rc')}<p><button class="secondary">New recovery codes</button></p></form>
<h3>Turn it off</h3>
<form method="post" action="/dashboard/two-factor/disable" data-confirm="Turn two-factor sign-in off?">${proofFields(csrf, 'off')}<p><button class="secondary">Turn off two-factor sign-in</button></p></form>
</section>`
    : html`<section class="card" aria-labelledby="tf-h"><h2 id="tf-h">Set up two-factor sign-in</h2>
${v.enrolmentRequired ? html`<div class="flash error" role="alert"><p>Your organisation requires two-factor sign-in. Set it up to continue.</p></div>` : ''}
<p>After your password, signing in will ask for a 6-digit code from an authenticator app on your phone (Google Authenticator, Microsoft Authenticator, 1Password, Aegis and others).</p>
<form method="post" action="/dashboard/two-factor/enrol">${csrfField(csrf)}<p><button>Set up two-factor sign-in</button></p></form>
</section>`;
  const org = v.canRequire
    ? html`<section class="card" aria-labelledby="req-h"><h2 id="req-h">For your organisation</h2>
<p>${v.required ? 'Every member must sign in with two-factor. Members without it are sent here at their next sign-in and can do nothing else until they set it up.' : 'Members may sign in without two-factor.'}</p>
<form method="post" action="/dashboard/two-factor/requirement">${csrfField(csrf)}<input type="hidden" name="required" value="${v.required ? 'no' : 'yes'}"><button class="secondary">${v.required ? 'Stop requiring two-factor' : 'Require two-factor of every member'}</button></form>
</section>`
    : '';
  return html`${mine}${org}`;
}

/** Enrolment: the QR code, the secret as text, and the first code that turns it on. */
export function enrolPage(csrf: string, v: { secret: string; qrDataUrl: string }): Html {
  const grouped = v.secret.replace(/(.{4})/g, '$1 ').trim();
  return html`<section class="card" aria-labelledby="en-h"><h2 id="en-h">Scan this with your authenticator app</h2>
<p><img class="qr" src="${v.qrDataUrl}" width="200" height="200" alt="QR code of your two-factor secret; the same secret is written below"></p>
<p>Cannot scan? Type this key into the app: <span class="mono" id="tf-secret">${grouped}</span></p>
<form method="post" action="/dashboard/two-factor/confirm">${csrfField(csrf)}
<label for="en-code">Then enter the 6-digit code the app shows</label><input id="en-code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required autofocus>
<p><button>Turn on two-factor sign-in</button></p>
</form></section>`;
}

/** The recovery codes, shown this once. */
export function recoveryCodesPage(codes: readonly string[]): Html {
  return html`<section class="card" aria-labelledby="rc-h"><h2 id="rc-h">Your recovery codes</h2>
<p>Keep these somewhere safe, away from your phone. Each code signs you in once if you lose your authenticator app. They are shown only now.</p>
<ul class="recovery-codes mono">${codes.map((c) => html`<li>${c}</li>`)}</ul>
<p><a class="button" href="/dashboard/two-factor">I have saved them</a></p>
</section>`;
}
