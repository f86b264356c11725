import { FULL_ONLY, keyPrincipal } from '../../../http/auth.js';
import { type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import type { RegisterDeps } from '../../registrations/register-deps.js';
import { presentSummary, StatementAnswer, StatementBody } from '../statements.schemas.js';
import { uploadStatement } from '../upload-statement.service.js';
import { Type } from 'typebox';

const E = Type.Ref('Error');

const examples: OperationExamples = {
  requests: {
    hdfc: {
      summary: 'An HDFC Bank export with its columns named',
      value: {
        csv: 'Date,Narration,Chq./Ref.No.,Value Dt,Withdrawal Amt.,Deposit Amt.,Closing Balance\n02/12/26,NEFT CR-HDFC0000123-PRIYA SHARMA-TKT-7F3K9M,N336261234567,02/12/26,,"1,499.00","25,499.00"\n',
        mapping: { date: 'Date', narration: 'Narration', credit: 'Deposit Amt.', debit: 'Withdrawal Amt.' },
      },
    },
  },
  responses: {
    '200': {
      success: true,
      data: {
        lines: 3,
        debits: 1,
        marked: 1,
        markedLines: [
          { line: 2, reference: 'TKT-7F3K9M', registrationId: 'reg_8c1d2e3f4a5b6c7d8e9f0a1b', amount: 1499 },
        ],
        listed: [
          {
            line: 4,
            reason: 'amount_differs',
            reference: 'TKT-Q4WZ7P',
            amount: 500,
            amountDue: 1499,
            registrationId: 'reg_1a2b3c4d5e6f7a8b9c0d1e2f',
          },
        ],
        mapping: { date: 'Date', narration: 'Narration', credit: 'Deposit Amt.', debit: 'Withdrawal Amt.' },
        mappingSource: 'given',
      },
    },
  },
};

export const uploadStatementOperation: Operation<RegisterDeps> = (app, deps) =>
  app.post(
    '/api/v1/offline-payments/statements',
    {
      config: { auth: FULL_ONLY, examples },
      schema: {
        operationId: 'uploadBankStatement',
        tags: ['registrations'],
        summary: 'Upload a bank statement to mark bookings paid',
        description:
          'The bank’s CSV export (date, amount, narration; docs/guides/offline-payments.md). A credit line whose narration names exactly one booking reference (TKT-XXXXXX) of a booking awaiting payment outside the gateway, for exactly its amount due, and named by no other line, marks that booking paid as `mark-paid` does (method `bank_transfer`, paid on the line’s date): one transaction per booking, every effect of a paid confirmation, the audit entry naming the key. Every other credit line is listed with its reason for a person to decide; debits are counted, not listed. Uploading the statement again marks nothing twice and lists its lines as `already_paid`. Full keys only (a checkout key gets 403). 400 `invalid_statement` (not CSV), `statement_mapping_required` (columns not recognised: send `mapping`), `statement_column_missing` (the mapping names a column the statement lacks, with `missing` and `columns`); 413 `statement_too_large` past 5,000 lines.',
        body: StatementBody,
        response: {
          200: answer(StatementAnswer, 'What was marked paid, and what is listed for a person.'),
          400: E,
          413: E,
        },
      },
    },
    async (req) => ({
      success: true as const,
      data: presentSummary(await uploadStatement(deps, keyPrincipal(req), req.body)),
    }),
  );
