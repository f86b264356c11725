// What the two-factor operations share (docs/decisions/25-organiser-teams-and-roles.md): the
// bodies and answers, and the examples' values.
import { Type } from 'typebox';

export const SESSION = { kind: 'session' } as const;

export const CODE = Type.String({
  minLength: 6,
  maxLength: 6,
  pattern: '^[0-9]{6}$',
  description: 'The 6-digit code the authenticator app shows now (RFC 6238, 30-second steps).',
});

/** Disabling and new recovery codes need a current code or the password. */
export const Proof = Type.Object(
  {
    code: Type.Optional(CODE),
    password: Type.Optional(Type.String({ maxLength: 1024, description: 'The person’s password.' })),
  },
  { additionalProperties: false },
);

export const RecoveryCodes = Type.Object({
  success: Type.Literal(true),
  recoveryCodes: Type.Array(Type.String(), {
    minItems: 10,
    maxItems: 10,
    description:
      'Ten single-use recovery codes, shown this once (only their hashes are kept). Each signs in once in place of a code.',
  }),
});

export const EXAMPLE_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
export const EXAMPLE_CODES = [
  'k7m2p-x9qrt',
  'a3bc4-dd9ef',
  'hj8kq-2mn5p',
  'r4stv-w6xy7',
  'z2a3b-c4d5e',
  'f6g7h-j8k9m',
  'n2p3q-r4s5t',
  'u6v7w-x8y9z',
  'b2c3d-e4f5g',
  'h6j7k-m8n9p',
];
export const PROOF_TEXT =
  'Needs a current `code` or the `password` (neither: 400 `two_factor_proof_required`; wrong: 401 `invalid_two_factor_code` or `invalid_credentials`; after 10 wrong ones in 15 minutes 429 `too_many_attempts`).';
