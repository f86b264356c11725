/*
 * Ticket checkout embed. Paste into any page:
 *   <div data-svc-event="my-event"></div>
 *   <button data-svc-button="my-event">Get tickets</button>
 *   <div data-svc-button="my-event"></div>   (an empty element is labelled "Get tickets", or data-svc-label)
 *   <div data-svc-plan="my-plan"></div>      (a membership plan's page, to join it)
 *   <button data-svc-plan-button="my-plan">Become a member</button>
 *   <script src="https://tickets.example/embed.js" async></script>
 * After a booking, `svc:registered` is dispatched on window and on the element,
 * with detail { eventSlug, status } (status: "confirmed" or "pending"); after joining a
 * plan, `svc:joined` with detail { planSlug, status } (status: "active").
 * No dependencies, no cookies.
 */
(function () {
  'use strict';
  var script = document.currentScript;
  if (!script || !script.src) return;
  var SERVICE = new URL(script.src).origin;
  var scriptKey = script.getAttribute('data-svc-key') || '';
  var bound = typeof WeakSet === 'function' ? new WeakSet() : null;
  // Every frame or window this script opened; messages from anything else are ignored.
  var views = [];

  // What a frame or window shows: an event's page (/e/) or a plan's (/m/).
  function pageUrl(page, embed, key) {
    var u = new URL((page.plan ? '/m/' : '/e/') + encodeURIComponent(page.slug), SERVICE);
    u.searchParams.set('embed', embed);
    u.searchParams.set('origin', window.location.origin);
    if (key) u.searchParams.set('key', key);
    return u.toString();
  }

  function keyFor(el) {
    return el.getAttribute('data-svc-key') || scriptKey;
  }

  function css(el, styles) {
    for (var k in styles) el.style.setProperty(k, styles[k]);
  }

  function titleOf(el, page) {
    return el.getAttribute('data-svc-title') || (page.plan ? 'Membership' : 'Ticket registration');
  }

  function frameFor(page, embed, key, title) {
    var f = document.createElement('iframe');
    f.src = pageUrl(page, embed, key);
    f.title = title;
    f.setAttribute('allow', 'payment *');
    css(f, { border: '0', width: '100%', display: 'block', 'color-scheme': 'normal' });
    return f;
  }

  function once(el) {
    if (!bound) {
      if (el.getAttribute('data-svc-bound') === '1') return false;
      el.setAttribute('data-svc-bound', '1');
      return true;
    }
    if (bound.has(el)) return false;
    bound.add(el);
    return true;
  }

  function inline(el, plan) {
    if (!once(el)) return;
    var slug = el.getAttribute(plan ? 'data-svc-plan' : 'data-svc-event');
    if (!slug) return;
    var page = { slug: slug, plan: plan };
    var f = frameFor(page, 'inline', keyFor(el), titleOf(el, page));
    f.setAttribute('scrolling', 'no');
    // A first height until the page reports its own.
    css(f, { height: '480px', overflow: 'hidden' });
    el.appendChild(f);
    views.push({
      el: el,
      slug: slug,
      plan: plan,
      kind: 'inline',
      frame: f,
      source: function () {
        return f.contentWindow;
      },
    });
  }

  function forget(view) {
    var i = views.indexOf(view);
    if (i >= 0) views.splice(i, 1);
  }

  function overlay(el, page, key) {
    var d = document.createElement('dialog');
    d.setAttribute('aria-label', titleOf(el, page));
    css(d, {
      padding: '0',
      border: '0',
      'border-radius': '10px',
      width: 'min(40rem, calc(100vw - 1rem))',
      height: 'min(52rem, calc(100dvh - 1rem))',
      'max-width': '100vw',
      'max-height': '100dvh',
      overflow: 'hidden',
      background: '#fff',
      'box-shadow': '0 10px 40px rgba(0,0,0,.35)',
    });
    var bar = document.createElement('div');
    css(bar, {
      display: 'flex',
      'justify-content': 'flex-end',
      height: '2.75rem',
      'border-bottom': '1px solid #ddd',
      background: '#fff',
    });
    var close = document.createElement('button');
    close.type = 'button';
    close.textContent = '\u00d7';
    close.setAttribute('aria-label', 'Close');
    css(close, {
      'font-size': '1.75rem',
      'line-height': '1',
      width: '2.75rem',
      height: '2.75rem',
      border: '0',
      background: 'transparent',
      cursor: 'pointer',
      color: '#222',
    });
    close.addEventListener('click', function () {
      d.close();
    });
    bar.appendChild(close);
    var f = frameFor(page, 'overlay', key, titleOf(el, page));
    css(f, { height: 'calc(100% - 2.75rem)' });
    d.appendChild(bar);
    d.appendChild(f);
    var view = {
      el: el,
      slug: page.slug,
      plan: page.plan,
      kind: 'overlay',
      frame: f,
      dialog: d,
      source: function () {
        return f.contentWindow;
      },
    };
    d.addEventListener('close', function () {
      forget(view);
      if (d.parentNode) d.parentNode.removeChild(d);
      if (el.focus) el.focus();
    });
    document.body.appendChild(d);
    views.push(view);
    d.showModal();
  }

  function popup(el, page, key) {
    var w = window.open(
      pageUrl(page, 'popup', key),
      'svc_' + (page.plan ? 'plan_' : '') + page.slug.replace(/[^A-Za-z0-9]/g, '_'),
      'popup,width=520,height=760',
    );
    if (!w) return false;
    var view = {
      el: el,
      slug: page.slug,
      plan: page.plan,
      kind: 'popup',
      win: w,
      source: function () {
        return w;
      },
    };
    views.push(view);
    var timer = setInterval(function () {
      if (w.closed) {
        clearInterval(timer);
        forget(view);
      }
    }, 1000);
    return true;
  }

  function button(el, plan) {
    if (!once(el)) return;
    var slug = el.getAttribute(plan ? 'data-svc-plan-button' : 'data-svc-button');
    if (!slug) return;
    var page = { slug: slug, plan: plan };
    if (el.tagName === 'BUTTON' && !el.getAttribute('type')) el.type = 'button';
    // An element left empty gets something to click: a label, and (unless it is a button or a
    // link, which look like one already) a button's look. Styles go through the CSSOM, which a
    // host page's CSP allows; no style sheet is injected.
    if (el.textContent.trim() === '' && !el.querySelector('img,svg,picture')) {
      el.textContent = el.getAttribute('data-svc-label') || (plan ? 'Become a member' : 'Get tickets');
      if (el.tagName !== 'BUTTON' && el.tagName !== 'A') {
        css(el, {
          display: 'inline-block',
          padding: '.7em 1.2em',
          'border-radius': '8px',
          background: '#3b3bb3',
          color: '#fff',
          'font-weight': '600',
          'line-height': '1.2',
          cursor: 'pointer',
          'user-select': 'none',
        });
      }
    }
    // Anything but a button or a link with an address is not focusable or a button to
    // assistive technology by itself.
    if (el.tagName !== 'BUTTON' && !(el.tagName === 'A' && el.hasAttribute('href'))) {
      el.setAttribute('role', 'button');
      if (!el.hasAttribute('tabindex')) el.tabIndex = 0;
      el.addEventListener('keydown', function (e) {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          el.click();
        }
      });
    }
    el.addEventListener('click', function (e) {
      e.preventDefault();
      var key = keyFor(el);
      // Opened in the click itself, so pop-up blockers let it through.
      var wantPopup = el.getAttribute('data-svc-mode') === 'popup' || typeof HTMLDialogElement !== 'function';
      if (wantPopup && popup(el, page, key)) return;
      overlay(el, page, key);
    });
  }

  function tell(view, name, detail) {
    var copy = {};
    for (var k in detail) copy[k] = detail[k];
    view.el.dispatchEvent(new CustomEvent(name, { detail: copy }));
    window.dispatchEvent(new CustomEvent(name, { detail: detail }));
  }

  window.addEventListener('message', function (e) {
    if (e.origin !== SERVICE) return;
    var d = e.data;
    if (!d || typeof d !== 'object' || d.ns !== 'svc' || d.v !== 1) return;
    var view = null;
    for (var i = 0; i < views.length; i++) if (views[i].source() === e.source) view = views[i];
    if (!view) return;
    if (d.type === 'resize' && view.kind === 'inline') {
      var h = Number(d.height);
      if (h > 0 && h < 100000) view.frame.style.setProperty('height', Math.ceil(h) + 'px');
    } else if (d.type === 'registered' && !view.plan) {
      if (d.status === 'confirmed' || d.status === 'pending')
        tell(view, 'svc:registered', { eventSlug: view.slug, status: d.status });
    } else if (d.type === 'joined' && view.plan) {
      if (d.status === 'active') tell(view, 'svc:joined', { planSlug: view.slug, status: d.status });
    } else if (d.type === 'close') {
      if (view.dialog) view.dialog.close();
      if (view.win) view.win.close();
    }
  });

  function scan(root) {
    var scope = root || document;
    var i;
    var events = scope.querySelectorAll('[data-svc-event]');
    for (i = 0; i < events.length; i++) inline(events[i], false);
    var buttons = scope.querySelectorAll('[data-svc-button]');
    for (i = 0; i < buttons.length; i++) button(buttons[i], false);
    var plans = scope.querySelectorAll('[data-svc-plan]');
    for (i = 0; i < plans.length; i++) inline(plans[i], true);
    var planButtons = scope.querySelectorAll('[data-svc-plan-button]');
    for (i = 0; i < planButtons.length; i++) button(planButtons[i], true);
  }

  window.SvcCheckout = { scan: scan };
  if (document.readyState === 'loading')
    document.addEventListener('DOMContentLoaded', function () {
      scan();
    });
  else scan();
})();
