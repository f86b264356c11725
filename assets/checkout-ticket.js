/*
 * The hosted page's confirmation: the buyer's ticket as GET /e/{slug}/tickets/{token}
 * answers it — the QR code, what was booked and paid, "Add to calendar" (.ics) and a
 * Google Calendar link, and wallet buttons where the service offers them. Defines
 * SvcTicket only; checkout-page.js calls it.
 */
(function () {
  'use strict';

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    if (attrs) for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function money(paise, currency) {
    var whole = paise % 100 === 0;
    return new Intl.NumberFormat('en-IN', {
      style: 'currency',
      currency: currency || 'INR',
      minimumFractionDigits: whole ? 0 : 2,
      maximumFractionDigits: 2,
    }).format(paise / 100);
  }

  /** The nodes that show `ticket` (the `ticket` member of the answer), in the page's strings. */
  window.SvcTicket = function (ticket, S) {
    var box = el('div', { class: 'ticket' });

    var qr = el('figure', { class: 'ticket-qr' });
    qr.appendChild(el('img', { src: ticket.qr, alt: S.qrAlt, width: '220', height: '220', id: 'ticket-qr' }));
    var caption = el('figcaption');
    caption.appendChild(el('span', { class: 'hint' }, S.qrHint));
    var id = el('span', { class: 'muted ticket-id' }, S.ticketId + ': ');
    id.appendChild(el('code', null, ticket.ticketId));
    caption.appendChild(id);
    qr.appendChild(caption);
    box.appendChild(qr);

    box.appendChild(el('h3', { id: 'booked-title' }, S.booked));
    var facts = el('dl', { class: 'facts booked', 'aria-labelledby': 'booked-title' });
    var row = function (label, value) {
      if (value === null || value === undefined || value === '') return;
      var div = el('div');
      div.appendChild(el('dt', null, label));
      div.appendChild(el('dd', null, value));
      facts.appendChild(div);
    };
    row(S.event, ticket.event.title);
    row(S.when, ticket.event.when);
    row(S.venue, ticket.event.location);
    row(S.session, ticket.session);
    row(S.ticket, ticket.ticketType);
    row(S.people, String(ticket.quantity));
    row(S.paid, ticket.amount === 0 ? S.freeBooking : money(ticket.amount, ticket.currency));
    box.appendChild(facts);

    if (ticket.calendarUrl || ticket.googleCalendarUrl) {
      var cal = el('div', { class: 'actions calendar', role: 'group', 'aria-label': S.calendarLabel });
      if (ticket.calendarUrl)
        cal.appendChild(
          el(
            'a',
            { href: ticket.calendarUrl, download: '', class: 'button-link', id: 'add-to-calendar' },
            S.addToCalendar,
          ),
        );
      if (ticket.googleCalendarUrl)
        cal.appendChild(
          el(
            'a',
            {
              href: ticket.googleCalendarUrl,
              target: '_blank',
              rel: 'noopener',
              class: 'secondary-link',
              id: 'google-calendar',
            },
            S.googleCalendar,
          ),
        );
      box.appendChild(cal);
    }

    // Wallet passes (Apple Wallet, Google Wallet) appear here when the service is configured for them.
    var wallet = el('div', {
      class: 'actions wallet',
      id: 'wallet-buttons',
      role: 'group',
      'aria-label': S.walletLabel,
    });
    var links = ticket.wallet || [];
    for (var i = 0; i < links.length; i++) {
      wallet.appendChild(
        el(
          'a',
          { href: links[i].url, class: 'button-link wallet-' + links[i].kind, rel: 'noopener' },
          links[i].label,
        ),
      );
    }
    wallet.hidden = links.length === 0;
    box.appendChild(wallet);
    return box;
  };
})();
