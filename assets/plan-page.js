/*
 * The hosted plan page's script. The page works without it (its steps are plain forms);
 * this sizes an embedding frame, tells the embedding page that someone joined, closes a
 * dialog or pop-up on "Done", and opens the live gateway's checkout for a payment. Speaks
 * to the embedding page only through postMessage, to the origin embed.js named; no cookies.
 */
(function () {
  'use strict';
  var block = document.getElementById('svc-config');
  if (!block) return;
  var cfg = JSON.parse(block.textContent);

  var target = null;
  if (cfg.origin) {
    if (cfg.embed === 'popup') target = window.opener;
    else if (window.parent !== window) target = window.parent;
  }
  function send(type, extra) {
    if (!target || !cfg.origin) return;
    var msg = { ns: 'svc', v: 1, type: type };
    if (extra) for (var k in extra) msg[k] = extra[k];
    try {
      target.postMessage(msg, cfg.origin);
    } catch (_err) {
      /* the embedder went away */
    }
  }

  var lastHeight = 0;
  function reportSize() {
    var h = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (h !== lastHeight) {
      lastHeight = h;
      send('resize', { height: h });
    }
  }
  if (typeof ResizeObserver === 'function') new ResizeObserver(reportSize).observe(document.documentElement);
  window.addEventListener('load', reportSize);
  send('ready');
  reportSize();

  // Only the slug and the status: never an id, a name or an email.
  if (cfg.joined) send('joined', { planSlug: cfg.slug, status: cfg.joined });

  var closers = document.querySelectorAll('[data-svc-close]');
  for (var i = 0; i < closers.length; i++) {
    closers[i].hidden = false;
    closers[i].addEventListener('click', function () {
      send('close');
      if (cfg.embed === 'popup') window.close();
    });
  }

  if (cfg.pay) {
    var payNow = document.getElementById('pay-now');
    var failure = document.getElementById('form-error');
    var open = function () {
      if (typeof window.Razorpay !== 'function') {
        failure.textContent = 'The payment window could not be loaded. Check your connection and try again.';
        failure.hidden = false;
        return;
      }
      new window.Razorpay({
        key: cfg.pay.key,
        amount: cfg.pay.amount,
        currency: cfg.pay.currency,
        name: cfg.pay.title,
        order_id: cfg.pay.orderId,
        callback_url: cfg.pay.callbackUrl,
        redirect: true,
      }).open();
    };
    payNow.addEventListener('click', open);
    window.addEventListener('load', open);
  }
})();
