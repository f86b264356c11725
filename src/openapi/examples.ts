// The examples of the operations whose routes do not carry their own yet (src/http/examples.ts
// says what an entry holds; a route's own `config.examples` win). Shrinks as each operation moves
// into a file of its own with its examples beside it.
import { EX, type OperationExamples } from '../http/examples.js';

export const EXAMPLES: Readonly<Record<string, OperationExamples>> = {
  openPasswordResetLink: {
    params: { token: EX.resetToken },
    responses: {
      '200':
        '<!doctype html><html lang="en-IN"><head><title>Set a new password</title></head><body><form method="post">…</form></body></html>',
    },
  },
};
