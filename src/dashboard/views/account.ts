// Signing in and up. These forms are bound to a pre-session cookie for CSRF.
import { html, type Html } from '../html.js';
import { bare, csrfField, resendForm } from '../layout.js';

const problem = (error: string | null) =>
  error ? html`<div class="flash error" role="alert"><p>${error}</p></div>` : '';

export function loginPage(
  csrf: string,
  v: { email: string; next: string; error: string | null; notice?: string | null },
): string {
  return bare(
    'Sign in',
    html`${problem(v.error)}${v.notice ? html`<div class="flash ok" role="status"><p>${v.notice}</p></div>` : ''}
<form method="post" action="/dashboard/login" class="card">${csrfField(csrf)}<input type="hidden" name="next" value="${v.next}">
<label for="l-email">Email</label><input id="l-email" name="email" type="email" autocomplete="username" required maxlength="254" value="${v.email}"${v.email ? '' : html` autofocus`}>
<label for="l-password">Password</label><input id="l-password" name="password" type="password" autocomplete="current-password" required maxlength="1024"${v.email ? html` autofocus` : ''}>
<p><button>Sign in</button></p>
</form>
<p><a href="/dashboard/password/forgot">Forgot your password?</a></p>
<p>New here? <a href="/dashboard/signup">Create an account</a></p>`,
  );
}

export function signupPage(
  csrf: string,
  v: { email: string; name: string; phone: string; error: string | null },
): string {
  return bare(
    'Create an account',
    html`${problem(v.error)}
<form method="post" action="/dashboard/signup" class="card">${csrfField(csrf)}
<label for="s-name">Your name</label><input id="s-name" name="name" autocomplete="name" required maxlength="200" value="${v.name}">
<label for="s-email">Email</label><input id="s-email" name="email" type="email" autocomplete="email" required maxlength="254" value="${v.email}">
<label for="s-phone">Phone <span class="hint">optional</span></label><input id="s-phone" name="phone" type="tel" autocomplete="tel" maxlength="32" value="${v.phone}">
<label for="s-password">Password <span class="hint">10 characters or more</span></label><input id="s-password" name="password" type="password" autocomplete="new-password" required minlength="10" maxlength="1024">
<p><button>Create account</button></p>
</form>
<p>Have an account? <a href="/dashboard/login">Sign in</a></p>`,
  );
}

/**
 * The verification screen: where sign-up lands, what the notice on other pages points to,
 * and — with the mail's token — where the signed-in owner confirms the address.
 */
export function verifyPage(csrf: string, v: { email: string; verified: boolean }): Html {
  if (v.verified) {
    return html`<div class="card"><p>Your email address <span class="mono">${v.email}</span> is verified. Live keys and payouts are open to this account.</p>
<p><a class="button" href="/dashboard/events">Go to your events</a></p></div>`;
  }
  return html`<div class="card">
<p>We sent a mail to <span class="mono">${v.email}</span>. Open the link in it to confirm that the address is yours; the link works once and expires in 48 hours.</p>
<p>Until then you can use test mode fully. Creating live keys, live payouts and staff screens need a verified address.</p>
<h2>No mail?</h2>
<p>Look in your spam folder, or send it again (at most 3 times an hour). The address is wrong? Create a new account with the right one.</p>
${resendForm(csrf)}
<p><a href="/dashboard/events">Continue to your events</a></p>
</div>`;
}

export function forgotPage(csrf: string, v: { email: string; sent: boolean; error: string | null }): string {
  if (v.sent) {
    return bare(
      'Check your mail',
      html`<div class="flash ok" role="status"><p>If an account has the address <span class="mono">${v.email}</span>, a mail with a link to set a new password is on its way. The link works once, for 60 minutes.</p></div>
<p><a href="/dashboard/login">Back to sign in</a></p>`,
    );
  }
  return bare(
    'Forgot your password?',
    html`${problem(v.error)}
<p>Give the address of your account and we mail you a link to set a new password. Setting it signs out every session of the account, so this is also how you take back an account someone else created with your address.</p>
<form method="post" action="/dashboard/password/forgot" class="card">${csrfField(csrf)}
<label for="f-email">Email</label><input id="f-email" name="email" type="email" autocomplete="email" required maxlength="254" value="${v.email}" autofocus>
<p><button>Mail me a link</button></p>
</form>
<p><a href="/dashboard/login">Back to sign in</a></p>`,
  );
}

export function resetPage(csrf: string, v: { token: string; error: string | null }): string {
  return bare(
    'Set a new password',
    html`${problem(v.error)}
<p>Choose a new password for your account. Every session of the account is signed out, and the address counts as verified.</p>
<form method="post" action="/dashboard/password/reset" class="card">${csrfField(csrf)}<input type="hidden" name="token" value="${v.token}">
<label for="r-password">New password <span class="hint">10 characters or more</span></label><input id="r-password" name="password" type="password" autocomplete="new-password" required minlength="10" maxlength="1024" autofocus>
<p><button>Set the new password</button></p>
</form>
<p><a href="/dashboard/password/forgot">Ask for a new link</a></p>`,
  );
}

/** The account screen: change the password, sign out everywhere. */
export function accountPage(csrf: string, v: { email: string; verified: boolean }): Html {
  return html`<section class="card" aria-labelledby="pw-h"><h2 id="pw-h">Change your password</h2>
<p>Signed in as <span class="mono">${v.email}</span>${v.verified ? '' : ' (address not verified yet)'}. Changing the password signs out every other session of the account: other browsers, and every API session token.</p>
<form method="post" action="/dashboard/password/change">${csrfField(csrf)}
<input type="text" name="username" autocomplete="username" value="${v.email}" hidden>
<label for="c-current">Current password</label><input id="c-current" name="currentPassword" type="password" autocomplete="current-password" required maxlength="1024">
<label for="c-new">New password <span class="hint">10 characters or more</span></label><input id="c-new" name="newPassword" type="password" autocomplete="new-password" required minlength="10" maxlength="1024">
<p><button>Change password</button></p>
</form></section>
<section class="card" aria-labelledby="tf-link-h"><h2 id="tf-link-h">Two-factor sign-in</h2>
<p>Ask for a code from an authenticator app after your password. <a href="/dashboard/two-factor">Two-factor sign-in settings</a></p>
</section>
<section class="card" aria-labelledby="out-h"><h2 id="out-h">Sign out everywhere</h2>
<p>Ends every session of the account, this one included: every browser and every API session token. API keys keep working; revoke them on the Developers page.</p>
<form method="post" action="/dashboard/logout-everywhere" data-confirm="Sign out of every session of this account, this one included?">${csrfField(csrf)}<button class="secondary">Sign out everywhere</button></form>
</section>`;
}

/** `code`: the refusal's stable code, on the message (`data-code`), as the JSON answers carry it. */
export function errorPage(status: number, message: string, back: string | null, code = ''): string {
  return bare(
    status === 404
      ? 'Not found'
      : status === 403
        ? 'Not allowed'
        : status === 429
          ? 'Too many attempts'
          : status >= 500
            ? 'Something went wrong'
            : 'That did not work',
    html`<div class="flash error" role="alert" data-code="${code}"><p>${message}</p></div>
<p>${back ? html`<a href="${back}">Go back</a> · ` : ''}<a href="/dashboard/events">Dashboard home</a></p>`,
  );
}

export type { Html };
