// Marking bookings paid outside the gateway from the dashboard (docs/decisions/24-payment-outside-the-gateway.md):
// the bank statement upload with its column mapping step, and a booking's Mark paid form. Both call
// the same services as the API (uploadStatement, markPaid), acting as the signed-in person.
import type { FastifyInstance } from 'fastify';
import type { OfflineMethod } from '../../db/database.js';
import { AppError, badRequest } from '../../lib/errors.js';
import { markPaid } from '../../modules/registrations/mark-paid.service.js';
import type { StatementMappingDoc } from '../../db/database.js';
import { statementColumns, uploadStatement } from '../../modules/statements/upload-statement.service.js';
import { rupees } from '../layout.js';
import { PAGE, sentence, type PageContext, type RegParams } from '../page-context.js';
import {
  STATEMENT_FORM_MAX,
  statementMappingPage,
  statementResultPage,
  statementUploadPage,
} from '../views/statements.js';
import type { Form } from '../form.js';

const METHODS: readonly OfflineMethod[] = ['bank_transfer', 'upi_to_organiser', 'cash_at_venue'];
const TITLE = 'Money: bank statement';

function mappingOf(f: Form): StatementMappingDoc {
  const column = (name: string, label: string) => f.optional(name, label, 100);
  return {
    date: f.required('date', 'Date column', 100),
    narration: f.required('narration', 'Narration column', 100),
    amount: column('amount', 'Amount column'),
    credit: column('credit', 'Credit column'),
    debit: column('debit', 'Debit column'),
  };
}

export function statementPages(app: FastifyInstance, ctx: PageContext): void {
  const { deps, show, done, form, org, eventPath } = ctx;

  app.get('/dashboard/money/statements', PAGE, async (req, reply) =>
    show(req, reply, 'money', TITLE, (v) => statementUploadPage(v.csrf)),
  );

  // Step two: the statement's columns, the remembered (or recognised) mapping chosen first.
  app.post('/dashboard/money/statements/columns', PAGE, async (req, reply) => {
    const csv = form(req).required('csv', 'The statement', STATEMENT_FORM_MAX);
    return show(req, reply, 'money', TITLE, async (v) => {
      const c = await statementColumns(deps.registerDeps, v.org, csv);
      return statementMappingPage(v.csrf, csv, c.columns, c.mapping, c.source);
    });
  });

  // Step three: mark the exact matches, list the rest. Sending it again marks nothing twice.
  app.post('/dashboard/money/statements', PAGE, async (req, reply) => {
    const f = form(req);
    const csv = f.required('csv', 'The statement', STATEMENT_FORM_MAX);
    const mapping = mappingOf(f);
    try {
      const summary = await uploadStatement(deps.registerDeps, org(req), { csv, mapping });
      req.log.info(
        { marked: summary.marked.length, listed: summary.listed.length, lines: summary.lines },
        'bank statement read',
      );
      return show(req, reply, 'money', TITLE, () => statementResultPage(summary));
    } catch (err) {
      // A mapping the statement does not fit: the same step again, saying what to change.
      if (!(err instanceof AppError) || err.status !== 400) throw err;
      return show(
        req,
        reply,
        'money',
        TITLE,
        async (v) => {
          const c = await statementColumns(deps.registerDeps, v.org, csv);
          return statementMappingPage(v.csrf, csv, c.columns, mapping, c.source);
        },
        { kind: 'error', text: sentence(err.message) },
      );
    }
  });

  app.post<RegParams>('/dashboard/events/:id/registrations/:rid/mark-paid', PAGE, async (req, reply) => {
    const f = form(req);
    const method = f.required('method', 'Paid by', 40) as OfflineMethod;
    if (!METHODS.includes(method)) throw badRequest('invalid_field', 'Paid by is not a method we know');
    const { reg, moved } = await markPaid(deps.registerDeps, org(req), req.params.id, req.params.rid, {
      method,
      amountPaid: f.number('amountPaid', 'Amount received'),
      reference: f.optional('reference', 'Reference', 100),
      paidAt: f.instant('paidAt', 'Paid at'),
    });
    const path = eventPath(req.params.id, `/registrations/${encodeURIComponent(req.params.rid)}`);
    return done(
      req,
      reply,
      path,
      moved
        ? `Marked paid (${rupees(Number(reg.amount_paise) / 100)}): the tickets are on their way to the buyer.`
        : 'This booking was marked paid already; nothing changed.',
    );
  });
}
