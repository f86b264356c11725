// Signing in and up. These forms are bound to a pre-session cookie for CSRF.
import { html, type Html } from '../html.js';
import { bare, csrfField, resendForm } from '../layout.js';

const problem = (error: string | null) => (error ? html`<div class="flash error" role="alert"><p>${error}</p></div>` : '');

export function loginPage(csrf: string, v: { email: string; next: string; error: string | null; notice?: string | null }): string {
  return bare(
    'Sign in',
    html`${problem(v.error)}${v.notice ? html`<div class="flash ok" role="status"><p>${v.notice}</p></div>` : ''}
<form method="post" action="/dashboard/login" class="card">${csrfField(csrf)}<input type="hidden" name="next" value="${v.next}">
<label for="l-email">Email</label><input id="l-email" name="email" type="email" autocomplete="username" required maxlength="254" value="${v.email}"${v.email ? '' : html` autofocus`}>
<label for="l-password">Password</label><input id="l-password" name="password" type="password" autocomplete="current-password" required maxlength="1024"${v.email ? html` autofocus` : ''}>
<p><button>Sign in</button></p>
</form>
<p>New here? <a href="/dashboard/signup">Create an account</a></p>`,
  );
}

export function signupPage(csrf: string, v: { email: string; name: string; phone: string; error: string | null }): string {
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

/** The verification screen: where sign-up lands, and what the notice on other pages points to. */
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

export function errorPage(status: number, message: string, back: string | null): string {
  return bare(
    status === 404 ? 'Not found' : status === 403 ? 'Not allowed' : status === 429 ? 'Too many attempts' : status >= 500 ? 'Something went wrong' : 'That did not work',
    html`<div class="flash error" role="alert"><p>${message}</p></div>
<p>${back ? html`<a href="${back}">Go back</a> · ` : ''}<a href="/dashboard/events">Dashboard home</a></p>`,
  );
}

export type { Html };
