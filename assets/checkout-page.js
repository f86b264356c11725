/*
 * The hosted checkout page's own script. Speaks to the embedding page only through
 * postMessage, to the origin embed.js named and no other; no cookies, no storage: the
 * booking in progress lives in this page (but for a waiting room's place: checkout-queue.js).
 */
(function () {
  'use strict';
  var cfg = JSON.parse(document.getElementById('svc-config').textContent);
  var S = cfg.strings;

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

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    if (attrs) for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function money(paise, currency) {
    return new Intl.NumberFormat('en-IN', { style: 'currency', currency: currency || 'INR' }).format(
      paise / 100,
    );
  }

  function access(body) {
    if (cfg.key) body.key = cfg.key;
    if (cfg.origin) body.origin = cfg.origin;
    if (cfg.offer) body.offer = cfg.offer;
    if (cfg.preview) body.preview = cfg.preview;
    return body;
  }

  function call(method, path, body) {
    var init = {
      method: method,
      headers: { accept: 'application/json' },
      credentials: 'omit',
      cache: 'no-store',
    };
    if (body) {
      init.headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    return fetch(path, init).then(
      function (res) {
        return res.json().then(
          function (json) {
            return { ok: res.ok, status: res.status, body: json };
          },
          function () {
            return { ok: false, status: res.status, body: { error: S.networkError } };
          },
        );
      },
      function () {
        return { ok: false, status: 0, body: { error: S.networkError } };
      },
    );
  }

  // ------------------------------------------------------------ the fallback payment page
  if (cfg.pay) {
    var payNow = document.getElementById('pay-now');
    var openCheckout = function () {
      if (typeof window.Razorpay !== 'function') return;
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
    payNow.addEventListener('click', openCheckout);
    openCheckout();
    return;
  }

  // ------------------------------------------------------------ size and readiness
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

  var form = document.getElementById('register-form');
  var result = document.getElementById('result');
  var formError = document.getElementById('form-error');
  var submit = document.getElementById('submit');
  if (!form) return;
  var slugPath = '/e/' + encodeURIComponent(cfg.slug);
  // The waiting room's steps before the form, while the event's room is on (checkout-queue.js).
  var queue = cfg.room ? window.SvcQueue(cfg, { call: call }) : null;
  // The summary, the button's label and the errors at their fields (checkout-form.js).
  var F = window.SvcForm(form, cfg, {
    quote: function (body) {
      return call('POST', slugPath + '/quote', access(body));
    },
  });

  // ------------------------------------------------------------ team members
  var team = document.getElementById('team');
  var teamList = document.getElementById('team-list');
  var addMember = document.getElementById('add-member');
  function renumber() {
    var rows = teamList.querySelectorAll('.member');
    for (var i = 0; i < rows.length; i++) {
      var n = String(i + 1);
      var inputs = rows[i].querySelectorAll('input');
      var labels = rows[i].querySelectorAll('label');
      labels[0].textContent = S.memberName.replace('{n}', n);
      labels[1].textContent = S.memberEmail.replace('{n}', n);
      labels[0].setAttribute('for', 'member-name-' + n);
      labels[1].setAttribute('for', 'member-email-' + n);
      inputs[0].id = 'member-name-' + n;
      inputs[1].id = 'member-email-' + n;
      var removeButton = rows[i].querySelector('button');
      if (removeButton) removeButton.textContent = S.removeMember.replace('{n}', n);
    }
    if (addMember) addMember.hidden = rows.length >= Number(team.getAttribute('data-max'));
    F.refresh();
    F.requote();
  }
  /** A team member's row; on a seated page it comes and goes with the seats, so it has no Remove of its own. */
  function memberRow(removable) {
    var row = el('div', { class: 'member' });
    var nameField = el('div', { class: 'field' });
    nameField.appendChild(el('label'));
    nameField.appendChild(
      el('input', {
        type: 'text',
        required: '',
        maxlength: '200',
        autocomplete: 'off',
        'data-member': 'name',
      }),
    );
    var emailField = el('div', { class: 'field' });
    emailField.appendChild(el('label'));
    emailField.appendChild(
      el('input', {
        type: 'email',
        required: '',
        maxlength: '254',
        autocomplete: 'off',
        'data-member': 'email',
      }),
    );
    row.appendChild(nameField);
    row.appendChild(emailField);
    if (removable) {
      var remove = el('button', { type: 'button', class: 'secondary' });
      remove.addEventListener('click', function () {
        row.parentNode.removeChild(row);
        renumber();
        addMember.focus();
      });
      row.appendChild(remove);
    }
    teamList.appendChild(row);
    return row;
  }
  /** A seated team event: one team member for each seat after the buyer's (the last ones go first). */
  function teamOf(n) {
    if (!team) return;
    var rows = teamList.querySelectorAll('.member');
    for (var k = rows.length; k < n; k++) memberRow(false);
    for (var j = rows.length - 1; j >= n; j--) teamList.removeChild(rows[j]);
    team.hidden = n === 0;
    renumber();
  }
  if (team && addMember) {
    addMember.addEventListener('click', function () {
      var row = memberRow(true);
      renumber();
      row.querySelector('input').focus();
    });
  }

  // ------------------------------------------------------------ the seat map
  // A seated event's seats (checkout-seats.js): the tier is the seats' category, the team one
  // person for each seat after the buyer's, and the booking carries the hold's token.
  function chooseTier(name) {
    var radios = form.querySelectorAll('input[name="ticketType"]');
    var changed = false;
    for (var i = 0; i < radios.length; i++) {
      var on = radios[i].value === name;
      if (radios[i].checked !== on) {
        radios[i].checked = on;
        changed = true;
      }
    }
    if (changed) form.dispatchEvent(new Event('change', { bubbles: true }));
  }
  var query = function () {
    return new URLSearchParams(access({})).toString();
  };
  // Seated track by track: the map is one session's, and its holds and statuses name it.
  var sitting = function (body) {
    if (cfg.seatMap && cfg.seatMap.track !== null) body.subEventId = cfg.seatMap.track;
    return access(body);
  };
  var seatMap = cfg.seatMap
    ? window.SvcSeats(cfg, {
        hold: function (body) {
          return call('POST', slugPath + '/seats/hold', sitting(body));
        },
        release: function (token) {
          return call('DELETE', slugPath + '/seats/hold/' + encodeURIComponent(token) + '?' + query());
        },
        statuses: function () {
          return call('GET', slugPath + '/seats/statuses?' + new URLSearchParams(sitting({})).toString());
        },
        tier: chooseTier,
        team: teamOf,
      })
    : null;

  // ------------------------------------------------------------ the booking
  // `ticket`: the buyer's own ticket token from the register answer (never sent to the host page).
  var booking = { email: '', name: '', phone: '', order: null, ticket: null, polling: null };

  function value(id) {
    var e = document.getElementById(id);
    return e ? e.value.trim() : '';
  }

  function collect() {
    var body = access({ name: value('name'), email: value('email') });
    if (value('phone')) body.phone = value('phone');
    if (F.code()) body.promoCode = F.code();
    var tier = form.querySelector('input[name="ticketType"]:checked');
    if (tier && tier.value !== 'General') body.ticketType = tier.value;
    if (tier && tier.hasAttribute('data-members-only')) {
      if (proof.value !== null) body.memberProof = proof.value;
      else if (value('membership')) body.membershipId = value('membership');
    }
    var method = form.querySelector('input[name="paymentMethod"]:checked');
    if (method && method.value !== 'gateway') body.paymentMethod = method.value;
    var session = form.querySelector('input[name="subEventId"]:checked');
    if (session && session.value !== '') body.subEventId = session.value;
    // Question names are the organiser's: defineProperty keeps "__proto__" an ordinary key.
    var answers = {};
    var any = false;
    var fields = form.querySelectorAll('[data-field]');
    for (var i = 0; i < fields.length; i++) {
      var f = fields[i];
      var name = f.getAttribute('data-field');
      var type = f.getAttribute('data-type');
      if (type === 'checkbox') {
        Object.defineProperty(answers, name, {
          value: f.checked,
          enumerable: true,
          writable: true,
          configurable: true,
        });
        any = true;
      } else if (f.value.trim() !== '') {
        Object.defineProperty(answers, name, {
          value: type === 'number' ? Number(f.value) : f.value.trim(),
          enumerable: true,
          writable: true,
          configurable: true,
        });
        any = true;
      }
    }
    if (any) body.customFields = answers;
    if (seatMap) body.holdToken = seatMap.token();
    if (queue && queue.admission()) body.admissionToken = queue.admission();
    if (teamList) {
      var members = [];
      var rows = teamList.querySelectorAll('.member');
      for (var j = 0; j < rows.length; j++) {
        members.push({
          name: rows[j].querySelector('[data-member="name"]').value.trim(),
          email: rows[j].querySelector('[data-member="email"]').value.trim(),
        });
      }
      if (members.length > 0) body.teamMembers = members;
    }
    return body;
  }

  function busy(on) {
    submit.disabled = on;
    submit.setAttribute('aria-busy', on ? 'true' : 'false');
    submit.textContent = on ? S.working : submit.getAttribute('data-label');
  }
  submit.setAttribute('data-label', submit.textContent);

  function showFormError(message) {
    formError.textContent = S.errorPrefix + ' ' + message;
    formError.hidden = false;
    formError.focus();
  }

  function showResult(title, parts, actions) {
    form.hidden = true;
    result.textContent = '';
    result.appendChild(el('h2', null, title));
    for (var i = 0; i < parts.length; i++) result.appendChild(parts[i]);
    if (actions && actions.length) {
      var row = el('p', { class: 'actions' });
      for (var j = 0; j < actions.length; j++) row.appendChild(actions[j]);
      result.appendChild(row);
    }
    result.hidden = false;
    result.focus();
  }

  function emailLine(before, after) {
    var p = el('p');
    p.appendChild(document.createTextNode(before + ' '));
    p.appendChild(el('strong', null, booking.email));
    p.appendChild(document.createTextNode(after ? ' ' + after : '.'));
    return p;
  }

  function doneActions() {
    if (cfg.embed !== 'overlay' && cfg.embed !== 'popup') return [];
    var done = el('button', { type: 'button' }, S.done);
    done.addEventListener('click', function () {
      send('close');
      if (cfg.embed === 'popup') window.close();
    });
    return [done];
  }

  // The header said the event's dates; above a booking it says the booked session's.
  function showBookedSession(ticket) {
    var when = document.getElementById('event-when');
    if (!when || !ticket.event.when) return;
    when.textContent = ticket.session ? ticket.session + ': ' + ticket.event.when : ticket.event.when;
  }

  function finished(status) {
    stopPolling();
    if (status === 'pending' || !booking.ticket) {
      showResult(
        status === 'pending' ? S.pendingTitle : S.confirmedTitle,
        [status === 'pending' ? emailLine(S.pending, S.pendingAfter) : emailLine(S.confirmed)],
        doneActions(),
      );
      result.className = 'result ' + (status === 'pending' ? 'pending' : 'confirmed');
    } else {
      // The ticket itself: QR, what was booked and paid, the calendar (checkout-ticket.js).
      showResult(S.working, [], []);
      void call('GET', slugPath + '/tickets/' + encodeURIComponent(booking.ticket)).then(function (r) {
        var parts = [emailLine(S.confirmed)];
        if (r.ok && r.body.ticket) {
          parts.push(window.SvcTicket(r.body.ticket, S));
          showBookedSession(r.body.ticket);
        }
        showResult(S.confirmedTitle, parts, doneActions());
        result.className = 'result confirmed';
      });
    }
    // Only the slug and the status: never an id, a name or an email.
    send('registered', { eventSlug: cfg.slug, status: status === 'pending' ? 'pending' : 'confirmed' });
  }

  // Booked to be paid outside the gateway: how much, the reference to quote (large, to read
  // aloud), by when, the organiser's instructions and, for UPI, the app link and its QR code.
  function awaitingPayment(b) {
    var due = b.awaitingPayment;
    var amount = money(b.amount, b.currency);
    var intro = emailLine(
      S.awaitingIntro.replace('{amount}', amount).replace('{payBy}', due.payByText),
      S.awaitingAfter,
    );
    var facts = el('dl', { class: 'awaiting-facts' });
    var fact = function (label, value, attrs) {
      var row = el('div');
      row.appendChild(el('dt', null, label));
      row.appendChild(el('dd', attrs, value));
      facts.appendChild(row);
    };
    fact(S.awaitingReference, due.reference, { class: 'reference', id: 'awaiting-reference' });
    fact(S.awaitingAmount, amount, { id: 'awaiting-amount' });
    fact(S.awaitingPayBy, due.payByText, { id: 'awaiting-pay-by' });
    fact(S.awaitingMethod, S.methodNames[due.method] || due.method);
    var parts = [intro, facts];
    if (b.instructions) {
      parts.push(el('h3', null, S.awaitingHow));
      var how = el('div', { class: 'instructions', id: 'awaiting-instructions' });
      var paras = b.instructions.split(/\r?\n\s*\r?\n/);
      for (var i = 0; i < paras.length; i++)
        if (paras[i].trim()) how.appendChild(el('p', null, paras[i].trim()));
      parts.push(how);
    }
    if (b.upi) {
      var link = el(
        'a',
        { class: 'button-link', id: 'upi-pay', href: b.upi.link },
        S.upiOpen.replace('{amount}', amount),
      );
      var linkRow = el('p');
      linkRow.appendChild(link);
      parts.push(linkRow);
      parts.push(el('p', null, S.upiScan));
      var alt = S.upiQrAlt.replace('{amount}', amount).replace('{reference}', due.reference);
      parts.push(
        el('img', { class: 'upi-qr', id: 'upi-qr', src: b.upi.qr, alt: alt, width: '240', height: '240' }),
      );
    }
    parts.push(el('p', { class: 'hint' }, S.awaitingLapse));
    showResult(S.awaitingTitle, parts, doneActions());
    result.className = 'result awaiting';
    send('registered', { eventSlug: cfg.slug, status: 'pending' });
  }

  function stopPolling() {
    if (booking.polling) clearInterval(booking.polling);
    booking.polling = null;
  }

  // The gateway's notification may confirm a booking whose checkout this page lost sight of.
  function startPolling() {
    if (booking.polling || !booking.order) return;
    var rounds = 0;
    booking.polling = setInterval(function () {
      if (++rounds > 120) return stopPolling();
      var q = new URLSearchParams(access({}));
      void call(
        'GET',
        '/e/' +
          encodeURIComponent(cfg.slug) +
          '/orders/' +
          encodeURIComponent(booking.order.orderId) +
          '?' +
          q.toString(),
      ).then(function (r) {
        if (r.ok && r.body.status === 'confirmed') finished('confirmed');
      });
    }, 5000);
  }

  function paymentPending(reason) {
    var parts = [el('p', null, S.paymentPending)];
    if (reason) parts.push(el('p', { class: 'error' }, S.paymentFailed + ' ' + reason));
    var retry = el('button', { type: 'button', id: 'retry-payment' }, S.retry);
    retry.addEventListener('click', function () {
      pay(booking.order);
    });
    var actions = [retry];
    if (cfg.mode === 'live') {
      var elsewhere = el(
        'a',
        {
          href:
            '/e/' + encodeURIComponent(cfg.slug) + '/pay?order=' + encodeURIComponent(booking.order.orderId),
          target: '_blank',
          rel: 'noopener',
          class: 'secondary-link',
        },
        S.openElsewhere,
      );
      actions.push(elsewhere);
    }
    showResult(S.paymentPendingTitle, parts, actions);
    result.className = 'result waiting';
    startPolling();
  }

  function confirmPayment(fields) {
    showResult(S.working, [], []);
    void call(
      'POST',
      '/e/' + encodeURIComponent(cfg.slug) + '/payment',
      access({
        razorpay_order_id: fields.razorpay_order_id,
        razorpay_payment_id: fields.razorpay_payment_id,
        razorpay_signature: fields.razorpay_signature,
      }),
    ).then(function (r) {
      if (r.ok) finished('confirmed');
      else paymentPending(r.body && r.body.error);
    });
  }

  function sandboxCheckout(order) {
    var intro = el('p', null, S.sandboxIntro);
    var amount = el('p', null, S.sandboxAmount + ': ');
    amount.appendChild(el('strong', null, money(order.amount, order.currency)));
    var act = function (outcome) {
      return function () {
        void call(
          'POST',
          '/e/' + encodeURIComponent(cfg.slug) + '/sandbox-checkout',
          access({ orderId: order.orderId, outcome: outcome }),
        ).then(function (r) {
          if (!r.ok) return paymentPending(r.body && r.body.error);
          if (r.body.failed) return paymentPending(S.sandboxFailed);
          confirmPayment(r.body);
        });
      };
    };
    var ok = el('button', { type: 'button', id: 'sandbox-pay' }, S.sandboxPay);
    ok.addEventListener('click', act('success'));
    var fail = el('button', { type: 'button', id: 'sandbox-fail', class: 'secondary' }, S.sandboxFail);
    fail.addEventListener('click', act('failure'));
    var cancel = el('button', { type: 'button', id: 'sandbox-cancel', class: 'secondary' }, S.sandboxCancel);
    cancel.addEventListener('click', function () {
      paymentPending();
    });
    showResult(S.sandboxTitle, [intro, amount], [ok, fail, cancel]);
    result.className = 'result sandbox';
  }

  function pay(order) {
    stopPolling();
    if (cfg.mode === 'test') return sandboxCheckout(order);
    if (typeof window.Razorpay !== 'function') return paymentPending();
    var failure = null;
    var rzp = new window.Razorpay({
      key: order.key,
      amount: order.amount,
      currency: order.currency,
      name: cfg.title,
      order_id: order.orderId,
      prefill: { name: booking.name, email: booking.email, contact: booking.phone },
      handler: confirmPayment,
      modal: {
        ondismiss: function () {
          paymentPending(failure);
        },
      },
    });
    if (typeof rzp.on === 'function') {
      rzp.on('payment.failed', function (resp) {
        failure = resp && resp.error && resp.error.description ? String(resp.error.description) : null;
      });
    }
    rzp.open();
  }

  // ------------------------------------------------------------ members-only proof
  // Shown while a members-only tier is chosen: a code mailed to the buyer's address proves the
  // membership; the proof it yields rides with the booking (for that email only).
  var membershipField = document.getElementById('membership-field');
  var proof = { email: '', value: null };
  if (membershipField) {
    var showProof = function () {
      var chosen = form.querySelector('input[name="ticketType"]:checked');
      membershipField.hidden = !(chosen && chosen.hasAttribute('data-members-only'));
    };
    form.addEventListener('change', showProof);
    showProof();
    var sendCode = document.getElementById('member-code-send');
    var checkCode = document.getElementById('member-code-check');
    var codeEntry = document.getElementById('member-code-entry');
    var codeInput = document.getElementById('member-code');
    var codeStatus = document.getElementById('member-code-status');
    var emailInput = document.getElementById('email');
    var fill = function (text, values) {
      return text.replace(/\{(\w+)\}/g, function (m, k) {
        return values[k] !== undefined ? String(values[k]) : m;
      });
    };
    var forget = function () {
      if (proof.value === null) return;
      proof.value = null;
      membershipField.removeAttribute('data-proved');
      codeStatus.textContent = '';
      sendCode.textContent = S.sendCode;
      sendCode.parentNode.hidden = false;
    };
    // A proof holds for the address it was mailed to: another address needs its own.
    emailInput.addEventListener('input', function () {
      if (proof.value !== null && emailInput.value.trim().toLowerCase() !== proof.email) forget();
    });
    sendCode.addEventListener('click', function () {
      F.clearErrors();
      var email = value('email');
      if (email === '' || !emailInput.validity.valid) {
        codeStatus.textContent = S.codeNeedsEmail;
        emailInput.focus();
        return;
      }
      sendCode.disabled = true;
      void call('POST', slugPath + '/member-code', access({ email: email })).then(function (r) {
        sendCode.disabled = false;
        if (!r.ok) {
          codeStatus.textContent = (r.body && r.body.error) || S.networkError;
          return;
        }
        codeStatus.textContent = fill(S.codeSent, { email: email, minutes: r.body.expiresInMinutes });
        sendCode.textContent = S.sendAgain;
        codeEntry.hidden = false;
        codeInput.value = '';
        codeInput.focus();
      });
    });
    var check = function () {
      F.clearErrors();
      var email = value('email');
      var code = codeInput.value.replace(/\s+/g, '');
      if (code === '') {
        F.showServerError({ field: 'code', error: S.codeEmpty });
        return;
      }
      checkCode.disabled = true;
      void call('POST', slugPath + '/member-code/verify', access({ email: email, code: code })).then(
        function (r) {
          checkCode.disabled = false;
          if (!r.ok) {
            if (!F.showServerError(r.body || {}))
              codeStatus.textContent = (r.body && r.body.error) || S.networkError;
            return;
          }
          proof.email = email.toLowerCase();
          proof.value = r.body.proof;
          membershipField.setAttribute('data-proved', '');
          codeEntry.hidden = true;
          sendCode.parentNode.hidden = true;
          codeStatus.textContent = fill(S.codeProved, { email: email });
        },
      );
    };
    checkCode.addEventListener('click', check);
    codeInput.addEventListener('keydown', function (e) {
      // Enter in the code field checks it rather than booking.
      if (e.key === 'Enter') {
        e.preventDefault();
        check();
      }
    });
  }

  form.addEventListener('submit', function (e) {
    e.preventDefault();
    formError.hidden = true;
    if (!F.validate()) return;
    if (seatMap && !seatMap.check()) return;
    // A promo code typed but not applied: apply it first and say what it did, so the buyer
    // sees the new total before paying (the next press pays it).
    if (!F.current()) {
      busy(true);
      F.apply().then(function (ok) {
        busy(false);
        if (ok) document.getElementById('promo-status').textContent += ' ' + S.codeChecked;
      });
      return;
    }
    var body = collect();
    booking.name = body.name;
    booking.email = body.email;
    booking.phone = body.phone || '';
    busy(true);
    void call('POST', '/e/' + encodeURIComponent(cfg.slug) + '/register', body).then(function (r) {
      busy(false);
      if (!r.ok) {
        if (queue && r.body && r.body.code === 'admission_required') return queue.lapsed();
        if (seatMap && r.body && r.body.code === 'seat_hold_lapsed') {
          // The seats went while the form was filled in: they are dropped, to be chosen again.
          seatMap.lapsed();
          return showFormError(S.seatHoldLapsed);
        }
        if (r.body && F.showServerError(r.body)) return;
        return showFormError((r.body && r.body.error) || S.networkError);
      }
      if (seatMap) seatMap.booked();
      booking.ticket = r.body.ticket || null;
      if (r.body.status === 'awaiting_payment') return awaitingPayment(r.body);
      if (r.body.status === 'payment_required') {
        booking.order = r.body;
        return pay(r.body);
      }
      finished(r.body.status);
    });
  });
})();
