// The dashboard's money pages: balance, payouts and the ledger of the dashboard's mode.
import { actorOfSession } from '../../modules/audit/audit.service.js';
import type { FastifyInstance } from 'fastify';
import { sessionPrincipal } from '../../http/auth.js';
import { AppError, notFound } from '../../lib/errors.js';
import * as accounts from '../../modules/accounts/accounts.service.js';
import * as ledger from '../../modules/ledger/ledger.service.js';
import * as payouts from '../../modules/payouts/payouts.service.js';
import * as registrations from '../../modules/registrations/registrations.service.js';
import { UPI_ID_MAX } from '../../lib/upi.js';
import { paiseToRupees } from '../../lib/money.js';
import { canOf, rupees, when } from '../layout.js';
import * as sessions from '../sessions.js';
import { ledgerPage, moneyPage } from '../views/money.js';
import { PAGE, PAGE_SIZE, sentence, type PageContext } from '../page-context.js';

export function moneyPages(app: FastifyInstance, ctx: PageContext): void {
  const { deps, show, done, form, org } = ctx;

  // ------------------------------------------------------------ money

  // The balance, payouts and ledger of the dashboard's mode, through the same service
  // functions as /dashboard/api/balance, /dashboard/api/payouts and /dashboard/api/ledger.
  app.get<{ Querystring: { after?: string } }>('/dashboard/money', PAGE, async (req, reply) =>
    show(req, reply, 'money', 'Money', async (v) => {
      const [bal, list, emailVerified] = await Promise.all([
        ledger.balance(deps.payoutDeps, deps.db, v.s.userId, v.mode),
        payouts.listPayouts(deps.payoutDeps, v.s.userId, v.mode, PAGE_SIZE, req.query.after),
        accounts.findUser(deps.db, v.s.userId).then((u) => u !== undefined && accounts.isEmailVerified(u)),
      ]);
      return moneyPage(
        v.csrf,
        {
          mode: v.mode,
          available: paiseToRupees(bal.availablePaise),
          pending: paiseToRupees(bal.pendingPaise),
          clearingDays: deps.payoutDeps.clearingDays,
          minimumRupees: payouts.MIN_PAYOUT_PAISE / 100,
          payouts: list.items,
          pages: { next: list.nextCursor, first: req.query.after === undefined },
          emailVerified,
          payoutsConfigured: deps.payoutDeps.razorpayx !== undefined,
        },
        canOf(v),
      );
    }),
  );

  app.get<{ Querystring: { after?: string } }>('/dashboard/money/ledger', PAGE, async (req, reply) =>
    show(req, reply, 'money', 'Money: ledger', async (v) => {
      const page = await ledger.listEntries(deps.payoutDeps, v.s.userId, v.mode, PAGE_SIZE, req.query.after);
      const now = await ledger.ledgerNow(deps.payoutDeps, v.s.userId, v.mode);
      return ledgerPage(
        v.mode,
        page.items,
        now,
        { next: page.nextCursor, first: req.query.after === undefined },
        canOf(v),
      );
    }),
  );

  // Test mode only: pending test sales become available (the account's test clock stays where it is).
  app.post('/dashboard/money/settle-now', PAGE, async (req, reply) => {
    const p = org(req);
    if (p.mode !== 'test')
      throw notFound(
        'only test-mode sales can be settled by hand; live sales clear after the working days',
        'not_found',
      );
    const r = await ledger.settleTestSalesNow(deps.payoutDeps, p.userId);
    req.log.info({ userId: p.userId, settledPaise: r.settledPaise }, 'test sales settled');
    return done(
      req,
      reply,
      '/dashboard/money',
      `Test sales settled: ${rupees(paiseToRupees(r.balance.availablePaise))} is available now.`,
    );
  });

  // A ledger row's booking: its own page under its event.
  app.get<{ Params: { rid: string } }>('/dashboard/registrations/:rid', PAGE, async (req, reply) => {
    const p = org(req);
    const reg = await registrations.findRegistration(deps.db, req.params.rid);
    if (!reg || reg.account_id !== p.userId || reg.mode !== p.mode)
      throw notFound('no such registration in this mode', 'registration_not_found');
    return reply.redirect(
      `/dashboard/events/${encodeURIComponent(reg.event_id)}/registrations/${encodeURIComponent(reg.id)}`,
      303,
    );
  });

  app.post('/dashboard/money/payouts', PAGE, async (req, reply) => {
    const f = form(req);
    const p = org(req);
    const input = { amount: f.number('amount', 'Amount'), upiId: f.required('upiId', 'UPI id', UPI_ID_MAX) };
    let payout: payouts.PayoutRow;
    try {
      payout = await payouts.requestPayout(
        deps.payoutDeps,
        p.userId,
        p.mode,
        input,
        actorOfSession(sessionPrincipal(req)),
      );
    } catch (err) {
      // A refusal shows on the page, like every form's; "not configured" is one too, not an outage.
      // The service names the JSON field (upiId); the form's label is "UPI id".
      if (
        err instanceof AppError &&
        (err.code === 'payouts_not_configured' || err.code === 'invalid_upi_id')
      ) {
        await sessions.setFlash(deps.db, sessionPrincipal(req).sessionId!, {
          kind: 'error',
          text: sentence(err.message.replace(/^upiId\b/, 'the UPI id')),
        });
        return reply.redirect('/dashboard/money', 303);
      }
      throw err;
    }
    req.log.info(
      { payoutId: payout.id, mode: payout.mode, amountPaise: Number(payout.amount_paise) },
      'payout requested',
    );
    const amount = rupees(paiseToRupees(Number(payout.amount_paise)));
    return done(
      req,
      reply,
      '/dashboard/money',
      p.mode === 'test'
        ? `Test withdrawal of ${amount} to ${payout.upi_id} sent to the sandbox payout gateway.`
        : `Withdrawal of ${amount} to ${payout.upi_id} requested; expected by ${when(payout.expected_by)}.`,
    );
  });

  app.post<{ Params: { payoutId: string; outcome: string } }>(
    '/dashboard/money/payouts/:payoutId/:outcome',
    PAGE,
    async (req, reply) => {
      const p = org(req);
      const outcome = req.params.outcome;
      // The sandbox payout gateway settles test-mode payouts only; live ones follow RazorpayX.
      if (p.mode !== 'test') throw notFound('only test-mode payouts are settled by hand', 'payout_not_found');
      if (outcome !== 'process' && outcome !== 'fail' && outcome !== 'reverse' && outcome !== 'cancel')
        throw notFound('no such action', 'not_found');
      const row = await payouts.settleSandboxPayout(deps.payoutDeps, p, req.params.payoutId, outcome);
      return done(
        req,
        reply,
        '/dashboard/money',
        `Test payout ${row.id} is now ${row.status}${row.utr ? ` (UTR ${row.utr})` : ''}.`,
      );
    },
  );
}
