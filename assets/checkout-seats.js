/*
 * The hosted page's seat map (docs/decisions/23-reserved-seating.md). The server draws it
 * (seat-map.html.ts); this part reads the seats back from that markup, makes the map one tab
 * stop (a listbox of seats named for a screen reader, moved through with the arrow keys),
 * zooms and pans it, holds the buyer's choice as it changes (each change replaces the hold in
 * one call, so a seat kept is never let go), counts the hold down, and refreshes the seats'
 * statuses every few seconds. Served as one script with checkout-form.js, checkout-ticket.js
 * and checkout-page.js; this part only defines SvcSeats.
 */
(function () {
  'use strict';

  var POLL_MS = 5000;
  /** A pointer that moves this far (px) drags the map rather than choosing a seat. */
  var DRAG_PX = 6;
  var ZOOM_STEP = 2;
  /** At the closest zoom seats are this many pixels apart: room for a finger. */
  var MAX_SEAT_PX = 56;
  var MIN_HEIGHT_PX = 224;

  function fill(text, values) {
    return text.replace(/\{(\w+)\}/g, function (m, k) {
      return values[k] !== undefined ? String(values[k]) : m;
    });
  }
  function classIndex(el) {
    var m = /(?:^|\s)k(\d+)(?:\s|$)/.exec(el.getAttribute('class') || '');
    return m ? Number(m[1]) : -1;
  }
  function pad2(n) {
    return n < 10 ? '0' + n : String(n);
  }

  /**
   * `io`: the page's calls, each answering Promise<{ ok, status, body }> — hold(body),
   * release(token), statuses() — and what the form follows: tier(category or null), team(n).
   */
  window.SvcSeats = function (cfg, io) {
    var M = cfg.seatMap;
    var S = cfg.strings;
    var svg = document.getElementById('seat-map');
    var section = document.getElementById('seats');
    if (!svg || !M) return null;
    var errorBox = document.getElementById('seat-error');
    var mapError = document.getElementById('seat-map-error');
    var statusLine = document.getElementById('seat-status');
    var chosenBox = document.getElementById('chosen');
    var chosenList = document.getElementById('chosen-list');
    var timerLine = document.getElementById('hold-timer');
    var tools = document.getElementById('map-tools');
    var zoomIn = document.getElementById('map-zoom-in');
    var zoomOut = document.getElementById('map-zoom-out');
    var whole = document.getElementById('map-whole');
    var best = document.getElementById('best');

    // ------------------------------------------------------------ the seats, read from the markup
    // seats[i] is the i-th seat of the plan: the i-th letter of /seats/statuses.
    var seats = [];
    var byId = Object.create(null);
    var seatOf = new Map();
    var rows = [];

    function readRow(group, rowsByKey) {
      var list = group.transform.baseVal;
      var rowY = list.numberOfItems ? list.getItem(0).matrix.f : 0;
      var sectionName = group.getAttribute('data-s') || '';
      var row = group.getAttribute('data-r');
      var cat = classIndex(group);
      var step = Number(group.getAttribute('data-d') || 1);
      var number = Number(group.getAttribute('data-n') || 1);
      var key = sectionName + '\u0000' + row;
      var r = rowsByKey[key];
      if (!r) {
        r = rowsByKey[key] = { seats: [], y: 0, minX: Infinity, maxX: -Infinity };
        rows.push(r);
      }
      var circles = group.getElementsByTagName('circle');
      for (var c = 0; c < circles.length; c++) {
        var el = circles[c];
        if (el.hasAttribute('data-n')) number = Number(el.getAttribute('data-n'));
        var cls = el.getAttribute('class') || '';
        var own = classIndex(el);
        var status = /(?:^|\s)([hsb])(?:\s|$)/.exec(cls);
        var seat = {
          i: seats.length,
          el: el,
          x: el.cx.baseVal.value,
          y: rowY + el.cy.baseVal.value,
          section: sectionName,
          label: el.getAttribute('data-l') || 'Row ' + row + ', seat ' + number,
          id: el.getAttribute('data-id') || sectionName + '-' + row + '-' + number,
          cat: own >= 0 ? own : cat,
          accessible: /(?:^|\s)w(?:\s|$)/.test(cls),
          status: status ? status[1] : 'a',
          // The classes that never change (colour, accessible): the status ones are added to them.
          base: cls
            .replace(/(?:^|\s)[hsb](?=\s|$)/g, '')
            .replace(/\s+/g, ' ')
            .trim(),
          row: r,
        };
        seats.push(seat);
        byId[seat.id] = seat.i;
        seatOf.set(el, seat.i);
        r.seats.push(seat.i);
        number += step;
      }
    }

    function readSeats() {
      var rowsByKey = Object.create(null);
      var groups = svg.querySelectorAll('g[data-r]');
      for (var g = 0; g < groups.length; g++) readRow(groups[g], rowsByKey);
      // Each row left to right, with its mean depth and its extent, for the arrow keys.
      for (var k = 0; k < rows.length; k++) {
        var r = rows[k];
        r.seats.sort(function (a, b) {
          return seats[a].x - seats[b].x;
        });
        var sum = 0;
        for (var j = 0; j < r.seats.length; j++) {
          var s = seats[r.seats[j]];
          s.pos = j;
          sum += s.y;
          if (s.x < r.minX) r.minX = s.x;
          if (s.x > r.maxX) r.maxX = s.x;
        }
        r.y = sum / r.seats.length;
      }
    }
    readSeats();

    // ------------------------------------------------------------ what the buyer has
    // want: the seats chosen (in the order chosen); held: the hold the service answered.
    var state = {
      active: -1,
      want: [],
      held: null,
      gen: 0,
      busy: false,
      best: null,
      stopped: false,
      polling: false,
    };
    var mine = Object.create(null);
    var marked = [];

    function heldList() {
      return state.held ? state.held.seats : [];
    }
    function wanted(i) {
      return state.want.indexOf(i) >= 0;
    }
    /** What a seat shows: m chosen, a available, h held, s sold, b not for sale. */
    function shown(i) {
      if (wanted(i)) return 'm';
      if (mine[i]) return 'a'; // the buyer's until the change that lets it go is answered
      return seats[i].status;
    }
    function word(st) {
      return {
        a: S.seatAvailable,
        m: S.seatChosen,
        h: S.seatHeld,
        s: S.seatSold,
        b: S.seatBlocked,
      }[st];
    }
    function category(i) {
      return M.categories[seats[i].cat] || { name: '', price: '', onSale: true };
    }
    /** "Row C, seat 12" (with the section where the plan has several). */
    function seatText(i) {
      var s = seats[i];
      return M.sections && s.section ? s.label + ', ' + s.section : s.label;
    }
    /** "Row C, seat 12, Gold, ₹1,500, available". */
    function nameOf(i, st) {
      var c = category(i);
      var parts = [seatText(i), c.name, c.price];
      if (seats[i].accessible) parts.push(S.seatAccessible);
      parts.push(word(st));
      return parts.join(', ');
    }
    function paint(i) {
      var s = seats[i];
      var st = shown(i);
      var cls = s.base + (st === 'a' ? '' : ' ' + st) + (i === state.active ? ' c' : '');
      s.el.setAttribute('class', cls.trim());
      s.el.setAttribute('aria-label', nameOf(i, st));
      s.el.setAttribute('aria-selected', st === 'm' ? 'true' : 'false');
      if (st === 'a' || st === 'm') s.el.removeAttribute('aria-disabled');
      else s.el.setAttribute('aria-disabled', 'true');
    }
    /** Paints the seats the buyer has or had: the rest show the service's statuses. */
    function repaintMarks() {
      var next = state.want.concat(heldList());
      var all = marked.concat(next);
      for (var k = 0; k < all.length; k++) paint(all[k]);
      marked = next;
    }

    // ------------------------------------------------------------ messages
    function say(text) {
      statusLine.textContent = text;
    }
    function showError(text) {
      errorBox.textContent = text;
      errorBox.hidden = false;
    }
    function clearErrors() {
      errorBox.hidden = true;
      errorBox.textContent = '';
      mapError.hidden = true;
      svg.removeAttribute('aria-invalid');
      svg.setAttribute('aria-describedby', 'seat-map-hint');
    }
    /** An error at the map, as the form shows one at a field. */
    function showMapError(text) {
      mapError.textContent = text;
      mapError.hidden = false;
      svg.setAttribute('aria-invalid', 'true');
      svg.setAttribute('aria-describedby', 'seat-map-hint seat-map-error');
    }

    // ------------------------------------------------------------ the view: zoom and pan
    var box = M.box;
    var view = { cx: box.x + box.w / 2, cy: box.y + box.h / 2, z: 1 };
    var size = { w: 1, h: 1 };

    /** The map keeps the plan's shape, within the screen's height, and never gets too flat to use. */
    function measure() {
      var w = Math.max(1, svg.parentNode.clientWidth);
      var h = Math.round(Math.max(MIN_HEIGHT_PX, Math.min(window.innerHeight * 0.7, (w * box.h) / box.w)));
      svg.style.height = h + 'px';
      size.w = w;
      size.h = h;
    }
    /** Plan units per pixel: at zoom 1 the whole plan fits. */
    function scale() {
      return Math.max(box.w / size.w, box.h / size.h) / view.z;
    }
    function maxZoom() {
      return Math.max(1, Math.max(box.w / size.w, box.h / size.h) * MAX_SEAT_PX);
    }
    function viewBox() {
      var s = scale();
      return { x: view.cx - (size.w * s) / 2, y: view.cy - (size.h * s) / 2, w: size.w * s, h: size.h * s };
    }
    function clampView() {
      view.z = Math.min(maxZoom(), Math.max(1, view.z));
      if (view.z === 1) {
        view.cx = box.x + box.w / 2;
        view.cy = box.y + box.h / 2;
      } else {
        view.cx = Math.min(box.x + box.w, Math.max(box.x, view.cx));
        view.cy = Math.min(box.y + box.h, Math.max(box.y, view.cy));
      }
    }
    function setDisabled(button, off) {
      if (off) button.setAttribute('aria-disabled', 'true');
      else button.removeAttribute('aria-disabled');
    }
    function apply() {
      clampView();
      var vb = viewBox();
      var r = function (v) {
        return Math.round(v * 1000) / 1000;
      };
      svg.setAttribute('viewBox', [r(vb.x), r(vb.y), r(vb.w), r(vb.h)].join(' '));
      svg.classList.toggle('zoomed', view.z > 1);
      setDisabled(zoomOut, view.z <= 1);
      setDisabled(zoomIn, view.z >= maxZoom());
    }
    /** Zooms by `factor`, keeping the point `at` (plan units) where it is on the screen. */
    function zoomBy(factor, at) {
      var z0 = view.z;
      view.z = Math.min(maxZoom(), Math.max(1, z0 * factor));
      var k = z0 / view.z;
      view.cx = at.x + (view.cx - at.x) * k;
      view.cy = at.y + (view.cy - at.y) * k;
      apply();
    }
    function centre() {
      return { x: view.cx, y: view.cy };
    }
    /** Brings a seat into view (the keyboard's seat as it moves). */
    function reveal(i) {
      var vb = viewBox();
      var s = seats[i];
      var m = Math.min(1, vb.w / 4);
      if (s.x < vb.x + m || s.x > vb.x + vb.w - m || s.y < vb.y + m || s.y > vb.y + vb.h - m) {
        view.cx = s.x;
        view.cy = s.y;
        apply();
      }
    }

    // ------------------------------------------------------------ the keyboard's seat
    function setActive(i) {
      var prev = state.active;
      state.active = i;
      if (prev >= 0 && prev !== i) paint(prev);
      var el = seats[i].el;
      if (!el.id) el.id = 'seat-' + i;
      svg.setAttribute('aria-activedescendant', el.id);
      paint(i);
      reveal(i);
    }
    /** Where the keyboard starts: the buyer's first seat, else the first seat for sale. */
    function firstActive() {
      if (state.want.length) return state.want[0];
      for (var i = 0; i < seats.length; i++) if (shown(i) === 'a') return i;
      return 0;
    }
    function moveInRow(step) {
      var s = seats[state.active];
      var next = s.row.seats[s.pos + step];
      if (next !== undefined) setActive(next);
    }
    function rowEnd(last) {
      var r = seats[state.active].row.seats;
      setActive(last ? r[r.length - 1] : r[0]);
    }
    /**
     * Up (towards the stage) or down: the nearest row that way, preferring rows that reach the
     * seat's place across (so a side block's row is not taken for the next row of this one),
     * then the seat of that row nearest this one.
     */
    function moveRow(dir) {
      var s = seats[state.active];
      var found = null;
      var foundDepth = Infinity;
      var foundOver = false;
      for (var k = 0; k < rows.length; k++) {
        var r = rows[k];
        var depth = (r.y - s.row.y) * dir;
        if (r === s.row || depth <= 0.01) continue;
        var over = s.x >= r.minX - 1 && s.x <= r.maxX + 1;
        if ((over && !foundOver) || (over === foundOver && depth < foundDepth)) {
          found = r;
          foundDepth = depth;
          foundOver = over;
        }
      }
      if (!found) return;
      var nearest = found.seats[0];
      var d = Infinity;
      for (var j = 0; j < found.seats.length; j++) {
        var t = seats[found.seats[j]];
        var dd = (t.x - s.x) * (t.x - s.x) + (t.y - s.y) * (t.y - s.y);
        if (dd < d) {
          d = dd;
          nearest = t.i;
        }
      }
      setActive(nearest);
    }

    // ------------------------------------------------------------ choosing
    function toggle(i) {
      clearErrors();
      if (!M.bookable) return say(S.previewNoSeats);
      if (wanted(i)) {
        state.want.splice(state.want.indexOf(i), 1);
        say(fill(S.seatRemovedNote, { seat: seatText(i) }));
        return changed();
      }
      var st = shown(i);
      if (st !== 'a') return say(fill(S.seatNotFree, { seat: seatText(i), status: word(st) }));
      var c = category(i);
      if (!c.onSale) return showError(fill(S.seatNotOnSale, { category: c.name }));
      if (state.want.length > 0 && seats[state.want[0]].cat !== seats[i].cat)
        return showError(fill(S.seatOneCategory, { category: category(state.want[0]).name, other: c.name }));
      if (state.want.length >= M.maxSeats) {
        if (M.maxSeats > 1) return showError(fill(S.seatTooMany, { n: M.maxSeats }));
        // One seat per booking: the new one takes the old one's place.
        state.want = [];
      }
      state.want.push(i);
      say(fill(S.seatChosenNote, { seat: seatText(i) }));
      changed();
    }
    function changed() {
      repaintMarks();
      renderChosen();
      sync();
    }

    /** The buyer's seats beside the map, each with its Remove button; the form follows them. */
    function renderChosen() {
      chosenList.textContent = '';
      for (var k = 0; k < state.want.length; k++) chosenList.appendChild(chosenItem(state.want[k]));
      chosenBox.hidden = state.want.length === 0;
      var c = state.want.length ? category(state.want[0]) : null;
      var row = document.getElementById('sum-seats');
      if (row)
        row.querySelector('dd').textContent = state.want.length
          ? state.want.map(seatText).join('; ')
          : S.notChosen;
      io.tier(c ? c.name : null);
      io.team(Math.max(0, state.want.length - 1));
    }
    function chosenItem(i) {
      var li = document.createElement('li');
      var c = category(i);
      var text = document.createElement('span');
      text.textContent = seatText(i) + ' · ' + c.name + ' · ' + c.price;
      var remove = document.createElement('button');
      remove.type = 'button';
      remove.className = 'secondary';
      remove.textContent = S.removeSeat;
      remove.setAttribute('aria-label', fill(S.removeSeatLabel, { seat: seatText(i) }));
      remove.addEventListener('click', function () {
        var at = state.want.indexOf(i);
        toggle(i);
        // Focus stays in the list (the next seat's button), or goes back to the map.
        var buttons = chosenList.querySelectorAll('button');
        if (buttons.length) buttons[Math.min(at, buttons.length - 1)].focus();
        else svg.focus();
      });
      li.appendChild(text);
      li.appendChild(remove);
      return li;
    }

    // ------------------------------------------------------------ holding what is chosen
    function same(a, b) {
      if (a.length !== b.length) return false;
      for (var k = 0; k < a.length; k++) if (b.indexOf(a[k]) < 0) return false;
      return true;
    }
    /** Brings the hold in line with the choice, one call at a time; a change made meanwhile follows. */
    function sync() {
      if (state.busy || state.stopped) return;
      if (state.best) {
        var b = state.best;
        state.best = null;
        return send(b, true);
      }
      if (same(state.want, heldList())) return;
      if (state.want.length === 0) return letGo();
      send(
        {
          seats: state.want.map(function (i) {
            return seats[i].id;
          }),
        },
        false,
      );
    }
    function send(body, isBest) {
      state.busy = true;
      if (state.held) body.replaces = state.held.token;
      void io.hold(body).then(function (r) {
        state.busy = false;
        if (state.stopped) return;
        if (r.ok) {
          setHeld(r.body);
          if (isBest) {
            state.want = heldList().slice();
            say(fill(S.seatsHeld, { seats: state.want.map(seatText).join('; ') }));
          }
        } else {
          // Refused: the seats held before are still held, and still the choice.
          state.want = heldList().slice();
          refused(r, body);
        }
        repaintMarks();
        renderChosen();
        sync();
      });
    }
    function refused(r, body) {
      var code = r.body && r.body.code;
      if (code === 'seats_unavailable' && body.category !== undefined)
        showError(fill(S.noSeatsTogether, { n: body.quantity, category: body.category }));
      else if (code === 'seats_unavailable') showError(S.seatsUnavailable);
      else showError((r.body && r.body.error) || S.networkError);
      // Show at once which seat went.
      poll();
    }
    /** Seats the buyer held and let go read free, as the service now has them, until the next refresh. */
    function letGoLocally(list, kept) {
      for (var k = 0; k < list.length; k++)
        if (kept.indexOf(list[k]) < 0 && seats[list[k]].status === 'h') seats[list[k]].status = 'a';
    }
    function setHeld(body) {
      var list = [];
      for (var k = 0; k < body.seats.length; k++) {
        var i = byId[body.seats[k].id];
        if (i !== undefined) {
          list.push(i);
          seats[i].status = 'h';
        }
      }
      letGoLocally(heldList(), list);
      state.held = {
        token: body.holdToken,
        seats: list,
        until: Date.now() + body.expiresInSeconds * 1000,
        warned: false,
      };
      state.gen++;
      mine = Object.create(null);
      for (var j = 0; j < list.length; j++) mine[list[j]] = true;
      startTimer();
      tick();
    }
    function letGo() {
      var token = state.held.token;
      state.busy = true;
      void io.release(token).then(function () {
        // Let go, or gone already (404): either way the buyer holds nothing now.
        state.busy = false;
        forgetHold();
        repaintMarks();
        renderChosen();
        sync();
      });
    }
    function forgetHold() {
      letGoLocally(heldList(), []);
      state.held = null;
      state.gen++;
      mine = Object.create(null);
      stopTimer();
    }
    /** The hold is over (its time ran out, or the booking found it lapsed): the seats are dropped. */
    function holdEnded(message) {
      var token = state.held && state.held.token;
      var letting = mine;
      forgetHold();
      state.want = [];
      // The service may keep it a moment longer by its own clock: let it go now, then look again.
      // Until it has, a refresh still reads the seats held; they stay the buyer's, shown free.
      if (token) mine = letting;
      repaintMarks();
      renderChosen();
      showError(message);
      if (!token) return poll();
      var seatsLet = Object.keys(letting).map(Number);
      void io.release(token).then(function () {
        // Unless the buyer has held seats again meanwhile, the ones let go read free until the refresh.
        if (mine === letting) {
          mine = Object.create(null);
          letGoLocally(seatsLet, []);
          for (var k = 0; k < seatsLet.length; k++) paint(seatsLet[k]);
        }
        state.gen++;
        poll();
      });
    }

    // ------------------------------------------------------------ the countdown
    var timer = null;
    function startTimer() {
      if (!timer) timer = setInterval(tick, 1000);
    }
    function stopTimer() {
      if (timer) clearInterval(timer);
      timer = null;
      timerLine.textContent = '';
    }
    function tick() {
      if (!state.held) return stopTimer();
      var left = Math.max(0, Math.round((state.held.until - Date.now()) / 1000));
      if (left <= 0) return holdEnded(S.seatsHoldEnded);
      timerLine.textContent = fill(S.seatsHeldFor, { time: Math.floor(left / 60) + ':' + pad2(left % 60) });
      if (left <= 120 && !state.held.warned) {
        state.held.warned = true;
        say(S.seatsTwoMinutes);
      }
    }

    // ------------------------------------------------------------ the statuses, refreshed
    function poll() {
      if (state.stopped || state.polling) return;
      state.polling = true;
      // The map says it is being brought up to date while the statuses are on their way.
      svg.setAttribute('aria-busy', 'true');
      var gen = state.gen;
      void io.statuses().then(function (r) {
        state.polling = false;
        svg.removeAttribute('aria-busy');
        if (!r.ok || state.stopped) return;
        // The buyer's hold changed while the letters were on their way: they may predate it.
        if (gen !== state.gen) return poll();
        var letters = r.body.statuses;
        if (r.body.planUpdatedAt !== M.planUpdatedAt || letters.length !== seats.length) {
          state.stopped = true;
          clearInterval(polling);
          return showError(S.planChanged);
        }
        // The buyer's own seats read held; one that reads free or sold means the hold is gone
        // (unless a change of the hold is under way).
        var trusted = !state.busy;
        var gone = false;
        for (var i = 0; i < seats.length; i++) {
          var l = letters.charAt(i);
          if (l === seats[i].status) continue;
          seats[i].status = l;
          if (trusted && mine[i] && l !== 'h') gone = true;
          paint(i);
        }
        if (gone && state.held) holdEnded(S.seatsHoldEnded);
      });
    }
    var polling = null;

    // ------------------------------------------------------------ the map comes to life
    svg.setAttribute('role', 'listbox');
    svg.setAttribute('aria-label', S.seatMap);
    svg.setAttribute('aria-multiselectable', M.maxSeats > 1 ? 'true' : 'false');
    svg.setAttribute('aria-describedby', 'seat-map-hint');
    svg.setAttribute('tabindex', '0');
    svg.removeAttribute('focusable');
    for (var i = 0; i < seats.length; i++) {
      seats[i].el.setAttribute('role', 'option');
      paint(i);
    }
    tools.hidden = false;
    best.hidden = false;
    measure();
    apply();

    svg.addEventListener('focus', function () {
      if (state.active < 0) setActive(firstActive());
      else reveal(state.active);
    });
    svg.addEventListener('keydown', function (e) {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      if (state.active < 0) setActive(firstActive());
      var handled = true;
      if (e.key === 'ArrowLeft') moveInRow(-1);
      else if (e.key === 'ArrowRight') moveInRow(1);
      else if (e.key === 'ArrowUp') moveRow(-1);
      else if (e.key === 'ArrowDown') moveRow(1);
      else if (e.key === 'Home') rowEnd(false);
      else if (e.key === 'End') rowEnd(true);
      else if (e.key === 'Enter' || e.key === ' ') toggle(state.active);
      else if (e.key === '+' || e.key === '=') zoomBy(ZOOM_STEP, seats[state.active]);
      else if (e.key === '-') zoomBy(1 / ZOOM_STEP, seats[state.active]);
      else handled = false;
      if (handled) e.preventDefault();
    });

    // A tap or click chooses a seat; a drag (when zoomed in) moves the map.
    var drag = null;
    var dragged = false;
    svg.addEventListener('pointerdown', function (e) {
      dragged = false;
      if (e.button !== 0 || view.z <= 1) return;
      drag = { id: e.pointerId, x: e.clientX, y: e.clientY, cx: view.cx, cy: view.cy, moved: false };
    });
    svg.addEventListener('pointermove', function (e) {
      if (!drag || e.pointerId !== drag.id) return;
      var dx = e.clientX - drag.x;
      var dy = e.clientY - drag.y;
      if (!drag.moved && Math.abs(dx) + Math.abs(dy) < DRAG_PX) return;
      if (!drag.moved) {
        drag.moved = true;
        // The drag goes on outside the map; a pointer the browser already let go of cannot be captured.
        try {
          svg.setPointerCapture(e.pointerId);
        } catch (_err) {
          /* the drag still follows the pointer while it is over the map */
        }
      }
      var s = scale();
      view.cx = drag.cx - dx * s;
      view.cy = drag.cy - dy * s;
      apply();
    });
    var endDrag = function (e) {
      if (!drag || e.pointerId !== drag.id) return;
      dragged = drag.moved;
      drag = null;
    };
    svg.addEventListener('pointerup', endDrag);
    svg.addEventListener('pointercancel', endDrag);
    svg.addEventListener('click', function (e) {
      if (dragged) return;
      var i = seatOf.get(e.target);
      if (i === undefined) return;
      setActive(i);
      toggle(i);
    });

    zoomIn.addEventListener('click', function () {
      zoomBy(ZOOM_STEP, centre());
    });
    zoomOut.addEventListener('click', function () {
      zoomBy(1 / ZOOM_STEP, centre());
    });
    whole.addEventListener('click', function () {
      view.z = 1;
      apply();
    });
    var lastWidth = size.w;
    if (typeof ResizeObserver === 'function')
      new ResizeObserver(function () {
        if (svg.parentNode.clientWidth === lastWidth) return;
        lastWidth = svg.parentNode.clientWidth;
        measure();
        apply();
      }).observe(svg.parentNode);

    document.getElementById('best-find').addEventListener('click', function () {
      clearErrors();
      if (!M.bookable) return say(S.previewNoSeats);
      var quantity = Number(document.getElementById('best-quantity').value);
      if (!(quantity >= 1 && quantity <= M.maxSeats && Math.floor(quantity) === quantity))
        return showError(fill(S.seatQuantity, { n: M.maxSeats }));
      var accessible = document.getElementById('best-accessible');
      state.best = { category: document.getElementById('best-category').value, quantity: quantity };
      if (accessible && accessible.checked) state.best.accessible = true;
      sync();
    });

    if (M.bookable) {
      polling = setInterval(function () {
        if (!document.hidden) poll();
      }, POLL_MS);
      document.addEventListener('visibilitychange', function () {
        if (!document.hidden) poll();
      });
    }

    return {
      /** The hold's token, for the booking. */
      token: function () {
        return state.held ? state.held.token : null;
      },
      /** True when the chosen seats are held; otherwise says why at the map. */
      check: function () {
        clearErrors();
        if (state.busy || !same(state.want, heldList())) {
          showMapError(S.seatsBusy);
          return false;
        }
        if (state.want.length === 0) {
          showMapError(S.seatNeedChoice);
          svg.focus();
          return false;
        }
        return true;
      },
      /** The booking found the hold lapsed: the seats are dropped and the buyer chooses again. */
      lapsed: function () {
        holdEnded(S.seatHoldLapsed);
      },
      /** Booked: the seats are the booking's now; the map has done its part. */
      booked: function () {
        state.stopped = true;
        clearInterval(polling);
        stopTimer();
        section.hidden = true;
      },
    };
  };
})();
