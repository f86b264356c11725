/*
 * The waiting room on the hosted page (docs/decisions/26-a-fair-waiting-room.md): join with an
 * email (the proof of work solved in a Web Worker by altcha-lib's solver, /embed/pow-worker.js),
 * the code, then the waiting screen, asked every 5 seconds; admitted, the booking form with the
 * time left. The place's status token is kept in localStorage, so a reload comes back to it.
 * window.SvcQueue(cfg, { call }) answers { admission(), lapsed() } for checkout-page.js.
 */
(function () {
  'use strict';
  var POLL_MS = 5000;
  // The numbers are announced when first shown, then at most once a minute while they change.
  var ANNOUNCE_MS = 60000;

  window.SvcQueue = function (cfg, api) {
    var R = cfg.room;
    var S = cfg.strings.queue;
    var $ = function (id) {
      return document.getElementById(id);
    };
    var slugPath = '/e/' + encodeURIComponent(cfg.slug);
    var storeKey = 'svc-queue:' + cfg.slug;
    var joinForm = $('queue-join');
    var verifyForm = $('queue-verify');
    var emailInput = $('queue-email');
    var codeInput = $('queue-code');
    var phoneInput = $('queue-phone');
    var status = $('queue-status');
    var errorBox = $('queue-error');
    var session = $('queue-session');
    var st = { email: '', token: null, verification: null, admission: null, until: 0 };
    var timers = { poll: null, tick: null };
    var spoken = { at: -Infinity, text: '' };

    function fill(text, values) {
      return text.replace(/\{(\w+)\}/g, function (m, k) {
        return values[k] !== undefined ? String(values[k]) : m;
      });
    }
    function storage() {
      try {
        return window.localStorage;
      } catch (_err) {
        return null;
      }
    }
    function save() {
      var s = storage();
      if (s) s.setItem(storeKey, JSON.stringify({ e: st.email, t: st.token, v: st.verification }));
    }
    function saved() {
      var s = storage();
      try {
        return (s && JSON.parse(s.getItem(storeKey) || 'null')) || null;
      } catch (_err) {
        return null;
      }
    }
    function forget() {
      var s = storage();
      if (s) s.removeItem(storeKey);
      st.token = st.verification = null;
    }

    function say(text) {
      status.textContent = text;
    }
    function show(step) {
      joinForm.hidden = step !== 'join';
      verifyForm.hidden = step !== 'verify';
      $('queue-wait').hidden = step !== 'wait';
      $('queue-sold-out').hidden = step !== 'soldout';
      $('queue-closed').hidden = step !== 'closed';
      $('queue-intro').hidden = step !== 'join' && step !== 'verify';
      $('queue').hidden = step === 'admitted';
      $('booking').hidden = step !== 'admitted';
    }
    function clearErrors() {
      errorBox.hidden = true;
      var slots = $('queue').querySelectorAll('.field-error');
      for (var i = 0; i < slots.length; i++) slots[i].hidden = true;
      var bad = $('queue').querySelectorAll('[aria-invalid]');
      for (var j = 0; j < bad.length; j++) bad[j].removeAttribute('aria-invalid');
    }
    function fieldError(input, message) {
      var slot = $(input.id + '-error');
      slot.textContent = message;
      slot.hidden = false;
      input.setAttribute('aria-invalid', 'true');
      var by = input.getAttribute('aria-describedby') || '';
      if (by.indexOf(slot.id) < 0) input.setAttribute('aria-describedby', (by + ' ' + slot.id).trim());
      input.focus();
    }
    function showError(message) {
      errorBox.textContent = message;
      errorBox.hidden = false;
      errorBox.focus();
    }
    function refused(r) {
      var b = r.body || {};
      var input = { email: emailInput, phone: phoneInput, code: codeInput }[b.field];
      if (input) fieldError(input, b.error || S.networkError);
      else showError(b.error || cfg.strings.networkError);
    }
    function busy(button, on) {
      button.disabled = on;
      button.setAttribute('aria-busy', on ? 'true' : 'false');
    }

    // ---------------------------------------------------------------- joining
    function solve(challenge) {
      return new Promise(function (resolve, reject) {
        var worker = new Worker(R.worker);
        worker.onmessage = function (m) {
          worker.terminate();
          if (m.data && m.data.solution)
            resolve(btoa(JSON.stringify({ challenge: challenge, solution: m.data.solution })));
          else reject(new Error(S.solveFailed));
        };
        worker.onerror = function () {
          worker.terminate();
          reject(new Error(S.solveFailed));
        };
        worker.postMessage(challenge);
      });
    }

    function join() {
      clearErrors();
      var email = emailInput.value.trim();
      if (email === '' || !emailInput.validity.valid) return fieldError(emailInput, cfg.strings.needEmail);
      var body = { email: email };
      if (phoneInput && phoneInput.value.trim() !== '') body.phone = phoneInput.value.trim();
      var channel = joinForm.querySelector('input[name="queueChannel"]:checked');
      if (channel && channel.value === 'whatsapp') body.channel = 'whatsapp';
      var button = $('queue-join-submit');
      busy(button, true);
      say(S.solving);
      void api
        .call('GET', slugPath + '/queue/challenge')
        .then(function (r) {
          if (!r.ok) return r;
          return solve(r.body).then(function (altcha) {
            say(S.joining);
            body.altcha = altcha;
            return api.call('POST', slugPath + '/queue/join', body);
          });
        })
        .then(
          function (r) {
            busy(button, false);
            say('');
            if (!r.ok) return refused(r);
            st.email = email.toLowerCase();
            if (r.body.statusToken) return placed(r.body.statusToken);
            st.verification = r.body.verificationId;
            save();
            show('verify');
            say(fill(S.codeSent, { sentTo: r.body.sentTo }));
            codeInput.value = '';
            codeInput.focus();
          },
          function (err) {
            busy(button, false);
            say('');
            showError(err.message);
          },
        );
    }

    function verify() {
      clearErrors();
      var code = codeInput.value.replace(/\s+/g, '');
      if (!/^\d{6}$/.test(code)) return fieldError(codeInput, S.codeEmpty);
      var button = $('queue-verify-submit');
      busy(button, true);
      void api
        .call('POST', slugPath + '/queue/verify', { verificationId: st.verification, code: code })
        .then(function (r) {
          busy(button, false);
          if (r.ok) return placed(r.body.statusToken);
          if (r.body && r.body.code === 'invalid_code') return fieldError(codeInput, r.body.error);
          // Spent, lapsed or unknown: the code step starts again from the email.
          if (r.status === 400 || r.status === 403) {
            st.verification = null;
            save();
            show('join');
          }
          refused(r);
        });
    }

    function placed(token) {
      st.token = token;
      st.verification = null;
      save();
      show('wait');
      say(S.placeKept);
      poll();
    }

    // ---------------------------------------------------------------- waiting
    function clock(ms) {
      var s = Math.max(0, Math.ceil(ms / 1000));
      var pad = function (n) {
        return (n < 10 ? '0' : '') + n;
      };
      // An hour or more: hours and minutes, the minutes rounded up (2 h 04 min 30 s is 2 h 05 min).
      var mins = Math.ceil(s / 60);
      if (s >= 3600) return Math.floor(mins / 60) + ' h ' + pad(mins % 60) + ' min';
      return Math.floor(s / 60) + ':' + pad(s % 60);
    }
    function waitWords(seconds) {
      if (seconds === null || seconds === undefined) return '—';
      if (seconds < 60) return S.waitUnder;
      if (seconds < 120) return S.waitMinute;
      if (seconds < 3600) return fill(S.waitMinutes, { n: Math.round(seconds / 60) });
      var m = Math.round(seconds / 60);
      return fill(S.waitHours, { h: Math.floor(m / 60), m: m % 60 });
    }
    function when(iso) {
      return new Intl.DateTimeFormat('en-IN', {
        timeZone: R.timeZone,
        weekday: 'short',
        day: 'numeric',
        month: 'short',
        year: 'numeric',
        hour: 'numeric',
        minute: '2-digit',
        timeZoneName: 'short',
      }).format(new Date(iso));
    }
    function announce(text, always) {
      var now = Date.now();
      if (text === spoken.text || (!always && now - spoken.at < ANNOUNCE_MS)) return;
      spoken.text = text;
      spoken.at = now;
      say(text);
    }
    function stopTick() {
      if (timers.tick) clearInterval(timers.tick);
      timers.tick = null;
    }
    function every(fn) {
      stopTick();
      fn();
      timers.tick = setInterval(fn, 1000);
    }

    function waiting(q) {
      var pre = q.position === null;
      $('queue-position-row').hidden = pre;
      $('queue-ahead-row').hidden = pre;
      $('queue-estimate-row').hidden = pre;
      $('queue-opens-row').hidden = !pre || !q.opensAt;
      $('queue-prequeue-note').hidden = !pre;
      $('queue-countdown').hidden = !pre || !q.opensAt;
      show('wait');
      if (pre) {
        if (!q.opensAt) return;
        $('queue-opens').textContent = when(q.opensAt);
        var at = Date.parse(q.opensAt);
        every(function () {
          var left = at - Date.now();
          $('queue-countdown').textContent = left > 0 ? fill(S.opensIn, { time: clock(left) }) : S.opening;
        });
        return announce(S.prequeue, true);
      }
      stopTick();
      var words = waitWords(q.estimatedWaitSeconds);
      $('queue-position').textContent = String(q.position);
      $('queue-ahead').textContent = q.ahead === 0 ? S.ahead0 : String(q.ahead);
      $('queue-estimate').textContent = words;
      announce(fill(S.announce, { position: q.position, ahead: q.ahead, wait: words }), spoken.at < 0);
    }

    function admitted(q) {
      st.admission = q.admissionToken;
      st.until = Date.parse(q.admissionExpiresAt);
      show('admitted');
      var email = $('email');
      email.value = st.email;
      email.readOnly = true;
      $('email-hint').textContent = S.emailLocked;
      var warned = false;
      every(function () {
        var left = st.until - Date.now();
        if ($('register-form').hidden) {
          // Booked (or paying): the time left no longer matters here.
          stopTick();
          session.hidden = true;
          return;
        }
        if (left <= 0) return lapsed();
        session.textContent = fill(S.timeLeft, { time: clock(left) });
        if (left <= 120000 && !warned) {
          warned = true;
          $('queue-session-live').textContent = S.twoMinutes;
        }
      });
      $('queue-session-live').textContent = S.yourTurn;
      session.focus();
    }

    function lapsed() {
      stopTick();
      st.admission = null;
      show('closed');
      say(S.sessionLapsed);
    }

    function soldOut() {
      stopTick();
      show('soldout');
      var wl = $('wl-email');
      if (wl && wl.value === '') wl.value = st.email;
      announce(S.soldOut, true);
    }

    function render(q) {
      if (q.state === 'admitted') return admitted(q);
      if (q.state === 'closed') return lapsed();
      if (q.soldOut) soldOut();
      else waiting(q);
      schedule();
    }

    function schedule() {
      if (timers.poll) clearTimeout(timers.poll);
      timers.poll = setTimeout(poll, POLL_MS);
    }

    function poll() {
      if (timers.poll) clearTimeout(timers.poll);
      timers.poll = null;
      void api
        .call('GET', slugPath + '/queue/status?token=' + encodeURIComponent(st.token))
        .then(function (r) {
          if (r.ok) return render(r.body);
          if (r.body && r.body.code === 'invalid_queue_token') {
            forget();
            show('join');
            return;
          }
          announce(S.reconnecting, true);
          schedule();
        });
    }

    joinForm.addEventListener('submit', function (e) {
      e.preventDefault();
      join();
    });
    verifyForm.addEventListener('submit', function (e) {
      e.preventDefault();
      verify();
    });
    $('queue-new-code').addEventListener('click', function () {
      emailInput.value = st.email;
      join();
    });

    var had = saved();
    if (had && had.e) {
      st.email = had.e;
      emailInput.value = had.e;
    }
    if (had && had.t) {
      st.token = had.t;
      show('wait');
      poll();
    } else if (had && had.v) {
      st.verification = had.v;
      show('verify');
    } else show('join');

    return {
      /** The admission token while admitted, else null. */
      admission: function () {
        return st.admission;
      },
      /** The booking found the admission lapsed. */
      lapsed: lapsed,
    };
  };
})();
