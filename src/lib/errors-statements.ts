// The refusals of bank statement uploads (docs/decisions/24-payment-outside-the-gateway.md),
// part of the one catalogue in error-catalogue.ts.

export const STATEMENT_ERRORS = {
  invalid_statement: {
    status: 400,
    message: 'the statement is not a CSV file the service can read (date, amount and narration columns)',
  },
  statement_mapping_required: {
    status: 400,
    message:
      'the statement’s columns could not be recognised; send a mapping naming its date, amount and narration columns',
  },
  statement_column_missing: {
    status: 400,
    message: 'the mapping names a column the statement does not have',
  },
  statement_too_large: {
    status: 413,
    message: 'the statement has too many lines; upload it in parts of at most 5,000 lines',
  },
} as const satisfies Record<string, { readonly status: number; readonly message: string }>;
