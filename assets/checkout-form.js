/*
 * The hosted page's form: the order summary and the button's label as the buyer chooses,
 * and every error shown at its field (aria-invalid, aria-describedby). Served as one
 * script with checkout-ticket.js and checkout-page.js; this part only defines SvcForm.
 */
(function () {
  'use strict';

  function own(o, k) {
    return Object.prototype.hasOwnProperty.call(o, k);
  }

  /** `api`: { quote(body) → Promise<{ ok, status, body }> } — the page's call to POST /e/{slug}/quote. */
  window.SvcForm = function (form, cfg, api) {
    var S = cfg.strings;
    var P = cfg.prices;
    var submit = document.getElementById('submit');
    var promo = document.getElementById('promo');
    var promoApply = document.getElementById('promo-apply');
    var promoStatus = document.getElementById('promo-status');
    // `applied`: the code the buyer applied (Apply, or Pay with a code typed); the summary and
    // the booking use it, never a code merely typed.
    var quoted = { key: '', value: null, pending: '' };
    var applied = '';
    var shownErrors = [];

    function money(paise) {
      if (paise === 0) return S.free;
      var whole = paise % 100 === 0;
      return new Intl.NumberFormat('en-IN', {
        style: 'currency',
        currency: P.currency || 'INR',
        minimumFractionDigits: whole ? 0 : 2,
        maximumFractionDigits: 2,
      }).format(paise / 100);
    }
    function checked(name) {
      return form.querySelector('input[name="' + name + '"]:checked');
    }
    function optionName(input) {
      var label = input && form.querySelector('label[for="' + input.id + '"] .option-name');
      return label ? label.textContent : '';
    }
    function hasSessions() {
      return form.querySelector('input[name="subEventId"]') !== null;
    }
    /** A seated event before seats are held: the seat map ticks the seats' category as the tier. */
    function seatsDue() {
      return form.hasAttribute('data-seated') && !checked('ticketType');
    }
    function quantity() {
      var list = document.getElementById('team-list');
      return 1 + (list ? list.querySelectorAll('.member').length : 0);
    }
    function typedCode() {
      return promo ? promo.value.trim() : '';
    }
    function promoCode() {
      return applied;
    }
    function sessionKey(c) {
      return c.subEventId !== undefined ? c.subEventId : '';
    }
    function say(text) {
      if (promoStatus) promoStatus.textContent = text;
    }

    /** What is chosen, as the quote call and the register call name it; null while a session is due. */
    function choice() {
      if (seatsDue()) return null;
      var session = checked('subEventId');
      if (hasSessions() && !session) return null;
      var tier = checked('ticketType');
      var c = { quantity: quantity() };
      if (session && session.value !== '') c.subEventId = session.value;
      if (tier && tier.value !== 'General') c.ticketType = tier.value;
      return c;
    }

    /** A ticket type's price per person in a session, from the page's table (null: not sold there). */
    function unitPrice(session, ticketType) {
      var row = own(P.sessions, session) ? P.sessions[session] : null;
      return row && own(row, ticketType) ? row[ticketType] : null;
    }

    /** The price by the page's own table (the service's rule, resolved per session and ticket type), times the people. */
    function localPrice(c) {
      var unit = unitPrice(sessionKey(c), c.ticketType || 'General') || 0;
      return {
        unitPrice: unit,
        quantity: c.quantity,
        subtotal: unit * c.quantity,
        discount: 0,
        total: unit * c.quantity,
      };
    }

    /** The tier list says each ticket type's price in the chosen session (the server wrote the range before a choice). */
    function showTierPrices() {
      var session = checked('subEventId');
      if (hasSessions() && !session) return;
      var key = session ? session.value : '';
      var tiers = form.querySelectorAll('input[name="ticketType"]');
      for (var i = 0; i < tiers.length; i++) {
        var price = unitPrice(key, tiers[i].value);
        var span = form.querySelector('label[for="' + tiers[i].id + '"] .option-price');
        if (span && price !== null) span.textContent = money(price);
      }
    }

    function keyOf(c) {
      return JSON.stringify([c.subEventId || '', c.ticketType || '', c.quantity, promoCode()]);
    }

    function setRow(id, value) {
      var row = document.getElementById('sum-' + id);
      if (!row) return;
      row.hidden = value === null;
      if (value !== null) row.querySelector('dd').textContent = value;
    }

    function setLabel(text) {
      submit.setAttribute('data-label', text);
      if (submit.getAttribute('aria-busy') !== 'true') submit.textContent = text;
    }

    /** Fills in the summary and the button from what is chosen (and the server's quote, with a code). */
    function refresh() {
      showTierPrices();
      var c = choice();
      setRow('session', c === null ? S.notChosen : optionName(checked('subEventId')));
      setRow('tier', optionName(checked('ticketType')) || null);
      setRow('quantity', String(quantity()));
      if (c === null) {
        setRow('price', '—');
        setRow('discount', null);
        setRow('total', '—');
        return setLabel(seatsDue() ? S.chooseSeats : S.chooseSession);
      }
      var price =
        promoCode() !== '' && quoted.key === keyOf(c) && quoted.value ? quoted.value : localPrice(c);
      setRow(
        'price',
        price.quantity > 1
          ? S.perPerson.replace('{amount}', money(price.unitPrice)).replace('{n}', String(price.quantity))
          : money(price.unitPrice),
      );
      setRow(
        'discount',
        price.discount > 0
          ? S.discountCode.replace('{amount}', money(price.discount)).replace('{code}', promoCode())
          : null,
      );
      setRow('total', money(price.total));
      // Paying the organiser directly: the button books now, and the buyer pays later.
      var method = checked('paymentMethod');
      var later = method !== null && method.value !== 'gateway';
      var instructions = document.getElementById('payment-instructions');
      if (instructions) instructions.hidden = !later;
      setLabel(
        price.total === 0
          ? S.register
          : (later ? S.bookAmount : S.payAmount).replace('{amount}', money(price.total)),
      );
    }

    /** What the applied code did, in words, for the status line under the field. */
    function sayApplied(q) {
      if (!q) return say('');
      if (q.discount > 0)
        say(
          S.codeApplied
            .replace('{code}', applied)
            .replace('{amount}', money(q.discount))
            .replace('{total}', money(q.total)),
        );
      else say(S.codeTakesNothing.replace('{code}', applied));
    }

    /** Asks the service what the applied code takes off this choice; true when the summary is current. */
    function requote() {
      var c = choice();
      if (c === null || applied === '') return Promise.resolve(true);
      var key = keyOf(c);
      if (quoted.key === key) return Promise.resolve(true);
      quoted.pending = key;
      var body = { quantity: c.quantity, promoCode: applied };
      if (c.subEventId !== undefined) body.subEventId = c.subEventId;
      if (c.ticketType !== undefined) body.ticketType = c.ticketType;
      return api.quote(body).then(function (r) {
        if (quoted.pending !== key) return false;
        quoted.key = key;
        quoted.value = r.ok ? r.body : null;
        clearError(promo);
        if (r.ok) sayApplied(r.body);
        else {
          // The code does not hold (any more) for this choice: it is no longer applied.
          applied = '';
          say('');
          showServerError(r.body || {});
        }
        refresh();
        return r.ok;
      });
    }

    /** Applies the typed code (or removes an emptied one) and says what it did; resolves true when the summary is current. */
    function apply() {
      clearError(promo);
      var typed = typedCode();
      if (typed === '') {
        applied = '';
        say('');
        refresh();
        return Promise.resolve(true);
      }
      if (choice() === null && seatsDue()) {
        say(S.seatNeedChoice);
        return Promise.resolve(false);
      }
      if (choice() === null) {
        var session = document.getElementById('session');
        if (session) showError(session, S.needSession);
        say(S.codeNeedsSession);
        focusFirst();
        return Promise.resolve(false);
      }
      applied = typed;
      quoted.key = '';
      return requote();
    }

    // ------------------------------------------------------------ errors at their fields
    function slotFor(el) {
      var id = el.id + '-error';
      var slot = document.getElementById(id);
      if (!slot) {
        slot = document.createElement('p');
        slot.className = 'field-error';
        slot.id = id;
        el.parentNode.insertBefore(slot, el.nextSibling);
      }
      return slot;
    }
    function describedBy(el, id, on) {
      var ids = (el.getAttribute('aria-describedby') || '').split(/\s+/).filter(function (x) {
        return x && x !== id;
      });
      if (on) ids.push(id);
      if (ids.length) el.setAttribute('aria-describedby', ids.join(' '));
      else el.removeAttribute('aria-describedby');
    }
    function showError(el, message) {
      var slot = slotFor(el);
      slot.textContent = message;
      slot.hidden = false;
      el.setAttribute('aria-invalid', 'true');
      describedBy(el, slot.id, true);
      if (shownErrors.indexOf(el) < 0) shownErrors.push(el);
    }
    function clearError(el) {
      if (!el) return;
      var slot = document.getElementById(el.id + '-error');
      if (slot) slot.hidden = true;
      el.removeAttribute('aria-invalid');
      // A group keeps its slot named (it is empty while hidden); an input lets go of it.
      if (el.tagName !== 'FIELDSET') describedBy(el, el.id + '-error', false);
    }
    function clearErrors() {
      while (shownErrors.length) clearError(shownErrors.pop());
    }
    function focusFirst() {
      var first = null;
      var all = form.querySelectorAll('[aria-invalid="true"]');
      if (all.length) first = all[0];
      if (!first) return;
      if (first.tagName === 'FIELDSET') first = first.querySelector('input:not([disabled])') || first;
      first.focus();
    }

    function questionEl(name) {
      var fields = form.querySelectorAll('[data-field]');
      for (var i = 0; i < fields.length; i++)
        if (fields[i].getAttribute('data-field') === name) return fields[i];
      return null;
    }

    /** The element a server refusal's `field` names, if the page shows it. */
    function fieldEl(field) {
      if (typeof field !== 'string') return null;
      var direct = {
        name: 'name',
        email: 'email',
        phone: 'phone',
        promoCode: 'promo',
        membershipId: 'member-code',
        code: 'member-code',
        ticketType: 'tier',
        subEventId: 'session',
        teamMembers: 'team',
        holdToken: 'seat-map',
      };
      if (own(direct, field)) return document.getElementById(direct[field]);
      var m = /^teamMembers\[(\d+)\]\.(name|email)$/.exec(field);
      if (m) return document.getElementById('member-' + m[2] + '-' + (Number(m[1]) + 1));
      if (field.indexOf('customFields.') === 0) return questionEl(field.slice('customFields.'.length));
      return null;
    }

    /** Shows a refusal at its field; false when it names none the page shows (the caller shows it for the form). */
    function showServerError(body) {
      var el = fieldEl(body.field);
      if (!el || el.closest('[hidden]')) return false;
      showError(el, body.error || '');
      focusFirst();
      return true;
    }

    /** Checks what the browser can check; shows each problem at its field. True when all is well. */
    function validate() {
      clearErrors();
      var session = document.getElementById('session');
      if (session && !checked('subEventId')) showError(session, S.needSession);
      var tier = checked('ticketType');
      // A members-only tier: proved by a mailed code (the page script marks the box) or a membership id.
      var proofBox = document.getElementById('membership-field');
      if (
        proofBox &&
        tier &&
        tier.hasAttribute('data-members-only') &&
        !proofBox.hasAttribute('data-proved')
      ) {
        var membership = document.getElementById('membership');
        if (!membership || membership.value.trim() === '') {
          var codeInput = document.getElementById('member-code');
          showError(
            codeInput.closest('[hidden]') ? document.getElementById('member-code-send') : codeInput,
            S.needMembership,
          );
        }
      }
      var name = document.getElementById('name');
      if (name.value.trim() === '') showError(name, S.needName);
      var email = document.getElementById('email');
      if (email.value.trim() === '' || !email.validity.valid) showError(email, S.needEmail);
      var fields = form.querySelectorAll('[data-field]');
      for (var i = 0; i < fields.length; i++) {
        var f = fields[i];
        var type = f.getAttribute('data-type');
        if (type === 'checkbox') {
          if (f.required && !f.checked) showError(f, S.needTick);
        } else if (type === 'number' && f.validity.badInput) {
          showError(f, S.badNumber);
        } else if (f.required && f.value.trim() === '') {
          showError(f, S.needAnswer);
        } else if (type === 'email' && f.value.trim() !== '' && !f.validity.valid) {
          showError(f, S.needEmail);
        }
      }
      var members = form.querySelectorAll('[data-member]');
      for (var j = 0; j < members.length; j++) {
        var mi = members[j];
        if (mi.getAttribute('data-member') === 'name' && mi.value.trim() === '') showError(mi, S.needName);
        if (mi.getAttribute('data-member') === 'email' && (mi.value.trim() === '' || !mi.validity.valid))
          showError(mi, S.needEmail);
      }
      focusFirst();
      return shownErrors.length === 0;
    }

    // A field drops its error as the buyer fixes it: a text field while typing (not on blur,
    // which would move the button away from a click already under way), a choice when made.
    function dropError(e) {
      var el =
        e.target && e.target.closest ? e.target.closest('fieldset[role="radiogroup"]') || e.target : null;
      if (el && el.getAttribute('aria-invalid') === 'true') clearError(el);
    }
    form.addEventListener('input', dropError);
    form.addEventListener('change', function (e) {
      if (e.target === promo) return; // a code counts once applied
      if (
        e.target &&
        (e.target.type === 'radio' || e.target.type === 'checkbox' || e.target.tagName === 'SELECT')
      )
        dropError(e);
      refresh();
      requote();
    });
    if (promo) {
      promo.addEventListener('input', function () {
        // Editing an applied code takes it off until it is applied again.
        if (applied !== '' && typedCode() !== applied) {
          applied = '';
          refresh();
        }
        if (typedCode() === '') say('');
        else if (typedCode() !== applied) say(S.codeNotApplied);
      });
      promo.addEventListener('keydown', function (e) {
        // Enter in the code field applies it rather than paying.
        if (e.key === 'Enter') {
          e.preventDefault();
          apply();
        }
      });
    }
    if (promoApply)
      promoApply.addEventListener('click', function () {
        apply();
      });
    refresh();

    return {
      refresh: refresh,
      requote: requote,
      apply: apply,
      validate: validate,
      showServerError: showServerError,
      clearErrors: clearErrors,
      /** The summary shows what pressing the button books: a typed code applied and priced. */
      current: function () {
        var c = choice();
        return c !== null && typedCode() === applied && (applied === '' || quoted.key === keyOf(c));
      },
      /** The code the booking carries. */
      code: promoCode,
    };
  };
})();
