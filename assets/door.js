// The door screen (docs/decisions/15-the-door.md). The roster lives in IndexedDB keyed by
// sha256(QR value); every admit and undo goes into a queue on the device and is sent
// to POST …/door/sync in order, at once when online, when the network returns
// otherwise. The service decides; what it answered differently from what the screen
// showed offline is listed as a conflict.
(function () {
  'use strict';
  var token = decodeURIComponent(location.pathname.split('/')[2] || '');
  var eventId = document.body.getAttribute('data-event');
  var api = '/api/v1/events/' + encodeURIComponent(eventId) + '/door/';
  var $ = function (id) {
    return document.getElementById(id);
  };
  var REASONS = {
    cancelled: 'Booking cancelled',
    refunded: 'Booking refunded',
    not_confirmed: 'Not confirmed (payment or approval pending)',
    transferred: 'Ticket transferred: scan the new holder’s QR',
    ticket_not_found: 'No such ticket for this event',
    invalid_qr: 'Not a ticket of this event',
    member_not_found: 'No such person on this booking',
    member_mismatch: 'This QR belongs to another team member',
    wrong_session: 'Ticket for another session',
  };
  // The reason as a sentence; a ticket of another session says which one it is valid for.
  function reasonText(reason, session) {
    var text = REASONS[reason] || reason;
    return reason === 'wrong_session' && session ? text + ': valid for ' + session : text;
  }

  var state = { cursor: null, entries: {}, queue: [], seq: 0, deviceId: null };
  var byKey = {}; // sha256 → { entry, index|null }
  var flushing = false;
  var current = null; // what the result panel shows: { entry, index|null, value|null }

  // ------------------------------------------------------------ storage (IndexedDB)

  // One store per pass (named by a hash of it): two links to one event's lists keep
  // their rosters and queues apart.
  var dbp = sha256(token).then(function (h) {
    return new Promise(function (resolve) {
      if (!window.indexedDB) return resolve(null);
      var req = indexedDB.open('door-' + eventId + '-' + h.slice(0, 16), 1);
      req.onupgradeneeded = function () {
        req.result.createObjectStore('kv');
      };
      req.onsuccess = function () {
        resolve(req.result);
      };
      req.onerror = function () {
        resolve(null);
      };
    });
  });
  function idbGet(k) {
    return dbp.then(function (db) {
      if (!db) return undefined;
      return new Promise(function (resolve) {
        var r = db.transaction('kv').objectStore('kv').get(k);
        r.onsuccess = function () {
          resolve(r.result);
        };
        r.onerror = function () {
          resolve(undefined);
        };
      });
    });
  }
  function idbPut(k, v) {
    return dbp.then(function (db) {
      if (!db) return;
      return new Promise(function (resolve) {
        var tx = db.transaction('kv', 'readwrite');
        tx.objectStore('kv').put(v, k);
        tx.oncomplete = function () {
          resolve();
        };
        tx.onerror = function () {
          resolve();
        };
      });
    });
  }
  function save() {
    return idbPut('state', {
      cursor: state.cursor,
      entries: state.entries,
      queue: state.queue,
      seq: state.seq,
      deviceId: state.deviceId,
      conflicts: state.conflicts || [],
      list: state.list || null,
    });
  }

  // ------------------------------------------------------------ helpers

  function sha256(text) {
    return crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)).then(function (buf) {
      return Array.prototype.map
        .call(new Uint8Array(buf), function (b) {
          return ('0' + b.toString(16)).slice(-2);
        })
        .join('');
    });
  }
  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) {
      if (k === 'text') e.textContent = attrs[k];
      else if (k === 'onclick') e.addEventListener('click', attrs[k]);
      else e.setAttribute(k, attrs[k]);
    }
    (children || []).forEach(function (c) {
      if (c) e.appendChild(c);
    });
    return e;
  }
  function time(iso) {
    if (!iso) return '';
    return new Date(iso).toLocaleTimeString('en-IN', {
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
  }
  function online() {
    return navigator.onLine !== false;
  }
  // A scanned value as text to show: printable characters, at most 40.
  function shown(value) {
    var v = String(value).replace(/[\u0000-\u001f\u007f-\u009f\ud800-\udfff]/g, '?');
    return 'Code ' + (v.length > 40 ? v.slice(0, 39) + '…' : v);
  }
  function request(method, path, body) {
    return fetch(api + path, {
      method: method,
      headers: Object.assign(
        { authorization: 'DoorPass ' + token, accept: 'application/json' },
        body ? { 'content-type': 'application/json' } : {},
      ),
      body: body ? JSON.stringify(body) : undefined,
      cache: 'no-store',
      credentials: 'omit',
    }).then(function (r) {
      return r.json().then(function (j) {
        if (!r.ok) {
          var err = new Error((j && j.error) || 'request failed');
          err.status = r.status;
          err.code = j && j.code;
          throw err;
        }
        return j.data;
      });
    });
  }
  function closed(err) {
    // A revoked or expired pass: the door closes at once.
    if (err && (err.status === 401 || err.status === 403)) {
      document.body.replaceChildren(
        el('main', { id: 'main', class: 'closed' }, [
          el('h1', { text: 'This door link does not work' }),
          el('p', { text: err.message.charAt(0).toUpperCase() + err.message.slice(1) + '.' }),
          el('p', { text: 'Ask the organiser for a new link.' }),
        ]),
      );
      stopCamera();
      return true;
    }
    return false;
  }

  // ------------------------------------------------------------ roster

  function index() {
    byKey = {};
    // Old QRs of transferred tickets first: a booking's own keys always win.
    Object.keys(state.entries).forEach(function (k) {
      (state.entries[k].retired || []).forEach(function (h) {
        byKey[h] = { entry: state.entries[k], index: null, retired: true };
      });
    });
    Object.keys(state.entries).forEach(function (k) {
      var entry = state.entries[k];
      byKey[entry.key] = { entry: entry, index: null };
      entry.members.forEach(function (m) {
        if (m.index > 0) byKey[m.key] = { entry: entry, index: m.index };
      });
    });
  }
  function counts() {
    var arrived = 0,
      expected = 0;
    Object.keys(state.entries).forEach(function (k) {
      var entry = state.entries[k];
      if (entry.refusal) return;
      entry.members.forEach(function (m) {
        expected++;
        if (m.checkedIn) arrived++;
      });
    });
    $('arrived').textContent = String(arrived);
    $('expected').textContent = String(expected);
  }
  function showNet() {
    var n = $('net');
    if (!n) return;
    var q = state.queue.length;
    n.textContent = online()
      ? q
        ? 'Online · sending ' + q + '…'
        : 'Online'
      : 'Offline · ' + q + ' scan' + (q === 1 ? '' : 's') + ' waiting';
    n.className = online() ? 'net' : 'net offline';
    $('queue').textContent = q ? q + ' scan' + (q === 1 ? '' : 's') + ' not yet sent' : '';
  }
  function merge(data) {
    if (data.full) state.entries = {};
    data.entries.forEach(function (e) {
      // A transfer gives the booking a new key: its entry under the old one goes.
      (e.retired || []).forEach(function (h) {
        delete state.entries[h];
      });
      state.entries[e.key] = e;
    });
    if (data.list) state.list = data.list;
    state.cursor = data.cursor;
    index();
    // Scans still queued keep the device's view until the service has answered them.
    state.queue.forEach(applyLocal);
    counts();
    if (current && current.hit && !$('result').hidden) {
      current.hit = byKey[current.hit.entry.key] || current.hit;
      render();
    }
  }
  function refresh() {
    // Offline, a device that has no roster yet still asks: the service worker may hold one.
    if (!online() && state.cursor) return Promise.resolve();
    return request('GET', 'roster' + (state.cursor ? '?since=' + encodeURIComponent(state.cursor) : ''))
      .then(function (data) {
        merge(data);
        return save();
      })
      .catch(function (err) {
        closed(err);
      });
  }

  // ------------------------------------------------------------ admit, undo, queue

  function targetsOf(entry, index) {
    return entry.members.filter(function (m) {
      return index === null || m.index === index;
    });
  }
  function applyLocal(scan) {
    var hit = scan.key && byKey[scan.key];
    if (!hit) return;
    targetsOf(hit.entry, scan.localIndex).forEach(function (m) {
      if (scan.action === 'admit' && !m.checkedIn) {
        m.checkedIn = true;
        m.checkedInAt = scan.at;
        m.checkedInBy = 'this device';
      }
      if (scan.action === 'undo') {
        m.checkedIn = false;
        m.checkedInAt = null;
        m.checkedInBy = null;
      }
    });
  }
  // `index` null: everyone on the booking. `value`: the QR value scanned or typed, else
  // the person was found by name and the roster's key stands for the ticket.
  function enqueue(action, hit, value, index) {
    var scan = {
      seq: ++state.seq,
      action: action,
      at: new Date().toISOString(),
      offline: !online(),
      key: hit ? hit.entry.key : null,
      localIndex: index,
    };
    if (value !== null) {
      scan.ticketId = value;
      if (index !== null) scan.memberIndex = index;
    } else if (index !== null && index > 0) {
      scan.ticketKey = targetsOf(hit.entry, index)[0].key;
    } else {
      scan.ticketKey = hit.entry.key;
      if (index !== null) scan.memberIndex = index;
    }
    scan.label = hit
      ? index === null
        ? hit.entry.members[0].name
        : targetsOf(hit.entry, index)[0].name
      : shown(value);
    applyLocal(scan);
    state.queue.push(scan);
    counts();
    save();
    showNet();
    void flush();
    return scan;
  }

  // Scans go in order, at most 500 and about 200 kB a call. The service answers each scan on
  // its own; should it refuse a whole call (a body it cannot read), the scans of that call go
  // one at a time, and one refused alone is set aside (shown with the conflicts), so one bad
  // QR never stops the scans after it.
  var MAX_BATCH = 500,
    MAX_BATCH_CHARS = 200000;
  var solo = 0; // scans still to send one at a time
  function wire(s) {
    var o = { seq: s.seq, action: s.action, at: s.at };
    if (s.ticketId !== undefined) o.ticketId = s.ticketId;
    if (s.ticketKey !== undefined && s.ticketId === undefined) o.ticketKey = s.ticketKey;
    if (s.memberIndex !== undefined) o.memberIndex = s.memberIndex;
    return o;
  }
  function nextBatch() {
    if (solo > 0) return state.queue.slice(0, 1);
    var batch = [],
      chars = 0;
    for (var i = 0; i < state.queue.length && batch.length < MAX_BATCH; i++) {
      var size = JSON.stringify(wire(state.queue[i])).length;
      if (batch.length && chars + size > MAX_BATCH_CHARS) break;
      batch.push(state.queue[i]);
      chars += size;
    }
    return batch;
  }
  function answered(batch, results) {
    var conflicts = [];
    results.forEach(function (r, i) {
      var s = batch[i];
      if (r.status === 'already_admitted' || r.status === 'refused') {
        if (s.offline || (r.status === 'refused' && !(current && current.seq === s.seq)))
          conflicts.push({ scan: s, result: r });
        if (current && current.seq === s.seq) showAnswer(r);
      } else if (current && current.seq === s.seq && !current.hit) {
        showAnswer(r);
      }
    });
    var done = {};
    batch.forEach(function (s) {
      done[s.seq] = true;
    });
    state.queue = state.queue.filter(function (s) {
      return !done[s.seq];
    });
    if (conflicts.length) showConflicts(conflicts);
  }
  function flush() {
    if (flushing || !online() || state.queue.length === 0) return Promise.resolve();
    flushing = true;
    var batch = nextBatch();
    return request('POST', 'sync', { deviceId: state.deviceId, scans: batch.map(wire) })
      .then(function (data) {
        if (solo > 0) solo--;
        answered(batch, data.results);
        flushing = false;
        return save()
          .then(refresh)
          .then(function () {
            showNet();
            if (state.queue.length) return flush();
          });
      })
      .catch(function (err) {
        flushing = false;
        if (closed(err)) return;
        if (err.status === 400 || err.status === 413 || err.status === 422) {
          if (batch.length > 1) {
            solo = batch.length;
          } else {
            // Refused alone: set aside, and the rest go on.
            solo = Math.max(0, solo - 1);
            answered(batch, [{ seq: batch[0].seq, status: 'refused', reason: 'invalid_qr' }]);
          }
          return save().then(function () {
            showNet();
            return flush();
          });
        }
        // The network or the service is down: the queue waits, and is sent again shortly.
        showNet();
      });
  }

  function conflictText(c) {
    var r = c.result;
    return r.status === 'already_admitted'
      ? c.scan.label + ': already in' + (r.by ? ' — by ' + r.by : '') + (r.at ? ' at ' + time(r.at) : '')
      : c.scan.label + ': refused — ' + reasonText(r.reason, r.session);
  }
  function showConflicts(list) {
    state.conflicts = (state.conflicts || []).concat(list.map(conflictText)).slice(-50);
    renderConflicts();
    buzz();
  }
  function renderConflicts() {
    var texts = state.conflicts || [];
    $('conflict-list').replaceChildren.apply(
      $('conflict-list'),
      texts.map(function (t) {
        return el('li', { text: t });
      }),
    );
    $('conflicts').hidden = texts.length === 0;
  }

  // ------------------------------------------------------------ the result panel

  function buzz() {
    if (navigator.vibrate) navigator.vibrate([200, 100, 200]);
    try {
      var Ctx = window.AudioContext || window.webkitAudioContext;
      if (!Ctx) return;
      var ctx = buzz.ctx || (buzz.ctx = new Ctx());
      var o = ctx.createOscillator();
      var g = ctx.createGain();
      o.frequency.value = 220;
      o.type = 'square';
      g.gain.value = 0.2;
      o.connect(g);
      g.connect(ctx.destination);
      o.start();
      o.stop(ctx.currentTime + 0.35);
    } catch (_e) {
      /* no sound */
    }
  }

  // The verdict takes the camera's place at the top of the screen, in view without scrolling.
  function panel(kind, verdict, lines, extra) {
    var r = $('result');
    r.className = 'result ' + kind;
    r.replaceChildren.apply(
      r,
      [el('p', { class: 'verdict', text: verdict })]
        .concat(
          lines.map(function (l) {
            return el('p', { class: l[0], text: l[1] });
          }),
        )
        .concat(extra || []),
    );
    var shown = !r.hidden;
    r.hidden = false;
    $('video').hidden = true;
    document.body.classList.add('has-verdict');
    if (!shown) {
      window.scrollTo(0, 0);
      r.focus({ preventScroll: true });
    }
    if (kind === 'bad' || kind === 'warn') buzz();
  }
  function clearVerdict() {
    $('result').hidden = true;
    document.body.classList.remove('has-verdict');
    if (scanning.stream) $('video').hidden = false;
  }

  function describe(entry) {
    return [entry.ticketType, entry.session || entry.track].filter(Boolean).join(' · ');
  }
  // A seated event's seat, big beside the name, when the verdict is about one person; a team
  // booking shows each member's seat in its list of people.
  function seatLines(entry, index) {
    var targets = targetsOf(entry, index);
    return targets.length === 1 && targets[0].seat ? [['seat', 'Seat: ' + targets[0].seat]] : [];
  }
  function whoLines(name, entry, index) {
    return [['who', name]].concat(seatLines(entry, index));
  }

  // A verdict from the service that differs from what the screen showed: it stays.
  function showAnswer(r) {
    if (!current) return;
    current.answered = r;
    if (current.hit) render();
    else answerPanel(r, current.name, []);
  }
  function answerPanel(r, name, seat) {
    var who = name ? [['who', name]].concat(seat) : [];
    if (r.status === 'already_admitted')
      panel(
        'warn',
        'Already in',
        who.concat([
          ['detail', 'Admitted' + (r.at ? ' at ' + time(r.at) : '') + (r.by ? ' by ' + r.by : '')],
        ]),
        nextButton(),
      );
    else if (r.status === 'admitted') panel('ok', 'Admitted', who, nextButton());
    else if (r.status === 'refused')
      panel('bad', 'Refused', who.concat([['detail', reasonText(r.reason, r.session)]]), nextButton());
    else panel('plain', 'Done', who, nextButton());
  }

  function nextBtn() {
    if (scanning.wanted)
      return el('button', { type: 'button', class: 'big next', text: 'Scan next', onclick: resume });
    return el('button', {
      type: 'button',
      class: 'big next',
      text: 'Next',
      onclick: function () {
        clearVerdict();
        current = null;
        $('q').value = '';
        $('q').focus();
      },
    });
  }
  function nextButton() {
    return [el('div', { class: 'actions' }, [nextBtn()])];
  }

  function personRow(hit, m, value) {
    var isIn = m.checkedIn;
    return el('li', {}, [
      el('span', { class: 'name', text: m.name }),
      m.seat ? el('span', { class: 'seat', text: 'Seat: ' + m.seat }) : null,
      isIn
        ? el('button', {
            type: 'button',
            class: 'undo',
            text: 'Undo',
            'aria-label': 'Undo ' + m.name,
            onclick: function () {
              act('undo', hit, value, m.index);
            },
          })
        : el('button', {
            type: 'button',
            class: 'admit',
            text: 'Admit',
            'aria-label': 'Admit ' + m.name,
            onclick: function () {
              act('admit', hit, value, m.index);
            },
          }),
      el('span', {
        class: 'state',
        text: isIn
          ? 'In since ' + time(m.checkedInAt) + (m.checkedInBy ? ' · ' + m.checkedInBy : '')
          : 'Not in yet',
      }),
    ]);
  }

  // Shows the person (or booking) as the roster has it.
  function render() {
    var hit = current.hit;
    var entry = hit.entry;
    var index = current.index;
    var targets = targetsOf(entry, index);
    current.name =
      index === null
        ? entry.members[0].name + (entry.members.length > 1 ? ' + ' + (entry.members.length - 1) : '')
        : targets[0].name;
    if (current.answered)
      return answerPanel(current.answered, hit.retired ? null : current.name, seatLines(entry, index));
    // An old QR of a transferred ticket names nobody: its holder is someone else now.
    if (hit.retired) return panel('bad', 'Refused', [['detail', REASONS.transferred]], nextButton());
    if (entry.refusal)
      return panel(
        'bad',
        'Refused',
        whoLines(current.name, entry, index).concat([
          ['detail', reasonText(entry.refusal, entry.session)],
          ['detail', entry.refusal === 'wrong_session' ? entry.ticketType : describe(entry)],
        ]),
        nextButton(),
      );
    var people =
      entry.members.length > 1
        ? [
            el(
              'ul',
              { class: 'people', 'aria-label': 'People on this booking' },
              entry.members.map(function (m) {
                return personRow(hit, m, current.value);
              }),
            ),
          ]
        : [];
    var allIn = targets.every(function (m) {
      return m.checkedIn;
    });
    var someOut = targets.some(function (m) {
      return !m.checkedIn;
    });
    var buttons = [];
    if (entry.members.length === 1) {
      buttons.push(
        allIn
          ? el('button', {
              type: 'button',
              class: 'undo',
              text: 'Undo',
              onclick: function () {
                act('undo', hit, current.value, index === null ? 0 : index);
              },
            })
          : el('button', {
              type: 'button',
              class: 'admit',
              text: 'Admit',
              onclick: function () {
                act('admit', hit, current.value, index === null ? 0 : index);
              },
            }),
      );
    } else if (index === null && someOut) {
      buttons.push(
        el('button', {
          type: 'button',
          class: 'admit',
          text: 'Admit everyone left',
          onclick: function () {
            act('admit', hit, current.value, null);
          },
        }),
      );
    }
    var actions = el('div', { class: 'actions' }, buttons.concat([nextBtn()]));
    if (current.justAdmitted) {
      panel(
        'ok',
        'Admitted',
        whoLines(current.name, entry, index).concat([['detail', describe(entry)]]),
        people.concat([actions]),
      );
    } else if (current.wasIn) {
      var first =
        targets.filter(function (m) {
          return m.checkedIn;
        })[0] || targets[0];
      panel(
        'warn',
        'Already in',
        whoLines(current.name, entry, index).concat([
          [
            'detail',
            'Admitted at ' + time(first.checkedInAt) + (first.checkedInBy ? ' by ' + first.checkedInBy : ''),
          ],
          ['detail', describe(entry)],
        ]),
        people.concat([actions]),
      );
    } else {
      panel(
        allIn ? 'ok' : 'plain',
        allIn ? 'In' : 'Not in yet',
        whoLines(current.name, entry, index).concat([['detail', describe(entry)]]),
        people.concat([actions]),
      );
    }
  }

  function act(action, hit, value, index) {
    // A member's own QR stands for that member alone: another one is named by the roster's key.
    if (value !== null && hit && hit.index !== null && index !== hit.index) value = null;
    var scan = enqueue(action, hit, value, index);
    current.seq = scan.seq;
    current.justAdmitted = action === 'admit';
    current.wasIn = false;
    current.answered = null;
    render();
  }

  /** A scanned or typed ticket: known → admit it when it is one person and admissible. */
  function open(value) {
    return sha256(value).then(function (key) {
      var hit = byKey[key];
      if (!hit) {
        // Not on this device's list (perhaps booked a moment ago): the service decides, now
        // when online, when the network returns otherwise.
        current = { hit: null, index: null, value: value, name: null };
        var scan = enqueue('admit', null, value, null);
        current.seq = scan.seq;
        if (online())
          panel(
            'plain',
            'Checking…',
            [['detail', 'Not on this device’s list; asking the service.']],
            nextButton(),
          );
        else
          panel(
            'warn',
            'Not on this device’s list',
            [['detail', 'Queued; the service decides when the network returns.']],
            nextButton(),
          );
        return;
      }
      current = { hit: hit, index: hit.index, value: value };
      var entry = hit.entry;
      var targets = targetsOf(entry, hit.index);
      if (entry.refusal || hit.retired) return render();
      if (targets.length === 1 || entry.members.length === 1) {
        var m = targets[0];
        if (m.checkedIn) {
          current.wasIn = true;
          return render();
        }
        return act('admit', hit, value, hit.index === null ? 0 : hit.index);
      }
      render(); // a team booking: admit everyone left, or one by one
    });
  }

  // ------------------------------------------------------------ search

  $('search').addEventListener('submit', function (e) {
    e.preventDefault();
    var q = $('q').value.trim();
    var list = $('matches');
    list.replaceChildren();
    if (!q) return;
    sha256(q).then(function (key) {
      if (byKey[key]) return open(q);
      var needle = q.toLowerCase();
      var found = [];
      Object.keys(state.entries).forEach(function (k) {
        var entry = state.entries[k];
        entry.members.forEach(function (m) {
          if (m.name.toLowerCase().indexOf(needle) !== -1 && found.length < 30)
            found.push({ entry: entry, m: m });
        });
      });
      if (found.length === 0) list.appendChild(el('li', { class: 'note', text: 'Nobody found.' }));
      found.forEach(function (f) {
        list.appendChild(
          el('li', {}, [
            el('button', {
              type: 'button',
              text:
                f.m.name +
                (f.m.seat ? ' · ' + f.m.seat : '') +
                ' · ' +
                describe(f.entry) +
                (f.entry.refusal
                  ? ' · ' + reasonText(f.entry.refusal, f.entry.session)
                  : f.m.checkedIn
                    ? ' · in'
                    : ''),
              onclick: function () {
                list.replaceChildren();
                current = {
                  hit: byKey[f.entry.key],
                  index: f.entry.members.length > 1 ? f.m.index : null,
                  value: null,
                };
                render();
              },
            }),
          ]),
        );
      });
    });
  });
  $('conflicts-ok').addEventListener('click', function () {
    state.conflicts = [];
    renderConflicts();
    save();
  });

  // ------------------------------------------------------------ camera

  var scanning = { active: false, wanted: false, stream: null, detector: null, busy: false };
  function stopCamera() {
    scanning.active = false;
    if (scanning.stream)
      scanning.stream.getTracks().forEach(function (t) {
        t.stop();
      });
    scanning.stream = null;
  }
  function resume() {
    clearVerdict();
    if (scanning.stream) {
      scanning.active = true;
      requestAnimationFrame(tick);
    } else startCamera();
  }
  function startCamera() {
    scanning.wanted = true;
    var note = $('camera-note');
    if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
      note.textContent = 'This browser cannot use the camera here; search by name or code instead.';
      return;
    }
    note.textContent = 'Starting the camera…';
    navigator.mediaDevices
      .getUserMedia({ video: { facingMode: 'environment' }, audio: false })
      .then(function (stream) {
        scanning.stream = stream;
        var v = $('video');
        v.srcObject = stream;
        v.hidden = false;
        return v.play();
      })
      .then(function () {
        var useNative =
          'BarcodeDetector' in window && BarcodeDetector.getSupportedFormats
            ? BarcodeDetector.getSupportedFormats().then(function (f) {
                return f.indexOf('qr_code') !== -1;
              })
            : Promise.resolve(false);
        return useNative.then(function (ok) {
          if (ok) scanning.detector = new BarcodeDetector({ formats: ['qr_code'] });
          note.textContent = 'Point the camera at the ticket’s QR code.';
          $('camera').textContent = 'Camera on';
          document.body.setAttribute('data-decoder', ok ? 'native' : 'jsqr');
          scanning.active = true;
          requestAnimationFrame(tick);
        });
      })
      .catch(function (e) {
        note.textContent =
          'The camera did not start (' +
          (e && e.name ? e.name : 'error') +
          '); search by name or code instead.';
      });
  }
  function decode(v) {
    if (scanning.detector) {
      return scanning.detector.detect(v).then(function (codes) {
        return codes.length ? codes[0].rawValue : null;
      });
    }
    var c = $('frame');
    var w = v.videoWidth,
      h = v.videoHeight;
    if (!w || !h) return Promise.resolve(null);
    var scale = Math.min(1, 640 / Math.max(w, h));
    c.width = Math.round(w * scale);
    c.height = Math.round(h * scale);
    var g = c.getContext('2d', { willReadFrequently: true });
    g.drawImage(v, 0, 0, c.width, c.height);
    var img = g.getImageData(0, 0, c.width, c.height);
    var code = window.jsQR(img.data, img.width, img.height, { inversionAttempts: 'dontInvert' });
    return Promise.resolve(code ? code.data : null);
  }
  function tick() {
    if (!scanning.active || scanning.busy) return;
    var v = $('video');
    if (v.readyState < 2) return requestAnimationFrame(tick);
    scanning.busy = true;
    decode(v).then(
      function (value) {
        scanning.busy = false;
        if (value && scanning.active) {
          // One scan at a time: the next waits for "Scan next".
          scanning.active = false;
          return open(value.trim());
        }
        if (scanning.active)
          setTimeout(function () {
            requestAnimationFrame(tick);
          }, 120);
      },
      function () {
        scanning.busy = false;
        if (scanning.active)
          setTimeout(function () {
            requestAnimationFrame(tick);
          }, 250);
      },
    );
  }
  $('camera').addEventListener('click', function () {
    if (scanning.stream) resume();
    else startCamera();
  });

  // ------------------------------------------------------------ start

  // The offline shell: the page, its files and the roster kept by /door/sw.js.
  if ('serviceWorker' in navigator) {
    navigator.serviceWorker
      .register('/door/sw.js', { scope: '/door/' })
      .then(function () {
        return navigator.serviceWorker.ready;
      })
      .then(function (reg) {
        var files = Array.prototype.map.call(
          document.querySelectorAll('script[src], link[rel=stylesheet]'),
          function (n) {
            return n.getAttribute('src') || n.getAttribute('href');
          },
        );
        reg.active.postMessage({
          type: 'keep',
          urls: [location.pathname].concat(files),
          roster: { path: api + 'roster', authorization: 'DoorPass ' + token },
        });
        document.body.setAttribute('data-offline-shell', 'ready');
      })
      .catch(function () {
        /* no offline shell: the screen still works online */
      });
  }

  window.addEventListener('online', function () {
    showNet();
    void flush().then(refresh);
  });
  window.addEventListener('offline', showNet);
  idbGet('state')
    .then(function (saved) {
      if (saved && saved.deviceId) {
        state = saved;
        state.queue.forEach(function (s) {
          s.offline = true;
        });
      } else {
        var bytes = new Uint8Array(9);
        crypto.getRandomValues(bytes);
        state.deviceId =
          'dev-' +
          Array.prototype.map
            .call(bytes, function (b) {
              return ('0' + b.toString(16)).slice(-2);
            })
            .join('');
      }
      sha256(state.deviceId).then(function (h) {
        $('device').textContent = 'This phone shows to others as “device ' + h.slice(0, 4) + '”.';
      });
      index();
      counts();
      renderConflicts();
      showNet();
      return refresh();
    })
    .then(function () {
      document.body.setAttribute('data-ready', 'true');
      showNet();
      void flush();
      // The live count: the roster's changes every 10 seconds while the page is seen.
      // Scans a failed send left queued go again at the same beat.
      setInterval(function () {
        if (!document.hidden && !flushing) void (state.queue.length ? flush() : refresh());
      }, 10000);
    });
})();
