// Server-rendered HTML of the top-level payment page of the hosted checkout.
import { escapeHtml as h } from '../../lib/html.js';
import { jsonBlock, layout, RAZORPAY_CHECKOUT_JS, type Assets } from './layout.html.js';
import type { Strings } from './strings.js';

/**
 * The top-level payment page: the fallback where the gateway's checkout cannot run in
 * the frame. It opens checkout.js with `callback_url`, so the gateway posts the result
 * back to the service and the page needs no script of ours after the redirect.
 */
export function renderPaymentPage(p: {
  strings: Strings;
  assets: Assets;
  title: string;
  order: { orderId: string; amount: number; currency: string; key: string };
  callbackUrl: string;
  mode: 'test' | 'live';
}): string {
  const s = p.strings;
  const config = {
    pay: { ...p.order, callbackUrl: p.callbackUrl, title: p.title },
    mode: p.mode,
    strings: s.script,
  };
  const body = `<main class="page" id="main">
<h1>${h(s.checkoutTitle)}</h1>
<p>${h(p.title)}</p>
<p>${h(s.checkoutIntro)}</p>
<p><button type="button" id="pay-now">${h(s.pay)}</button></p>
<div id="form-error" class="error" role="alert" tabindex="-1" hidden></div>
</main>
${jsonBlock('svc-config', config)}`;
  return layout(s, s.checkoutTitle, p.assets, body, {
    head: `${p.mode === 'live' ? `<script src="${RAZORPAY_CHECKOUT_JS}" defer></script>\n` : ''}<script src="${h(p.assets.js)}" defer></script>`,
  });
}
