// An event's payment outside the gateway (docs/decisions/24-payment-outside-the-gateway.md):
// the organiser's input checked into the stored shape, and what the API shows. Pure.
import type { OfflineMethod, OfflinePaymentDoc } from '../../db/database.js';
import { badRequest } from '../../lib/errors.js';
import { normaliseUpiId } from '../../lib/upi.js';

export const OFFLINE_METHODS = [
  'bank_transfer',
  'upi_to_organiser',
  'cash_at_venue',
] as const satisfies readonly OfflineMethod[];
export const DEFAULT_PAY_WITHIN_DAYS = 3;
export const INSTRUCTIONS_MAX = 2_000;
export const UPI_NAME_MAX = 100;

export interface OfflinePaymentInput {
  enabled?: boolean;
  methods?: string[];
  instructions?: string;
  payWithinDays?: number;
  upiId?: string | null;
  upiName?: string | null;
}

const invalid = (message: string, field: string) =>
  badRequest('invalid_offline_payment', `offlinePayment.${field} ${message}`, {
    field: `offlinePayment.${field}`,
  });

function methodsOf(input: string[] | undefined, base: OfflineMethod[]): OfflineMethod[] {
  if (input === undefined) return base;
  const out: OfflineMethod[] = [];
  for (const m of input) {
    if (!(OFFLINE_METHODS as readonly string[]).includes(m))
      throw invalid(`has an unknown method; use ${OFFLINE_METHODS.join(', ')}`, 'methods');
    if (!out.includes(m as OfflineMethod)) out.push(m as OfflineMethod);
  }
  return out;
}

function upiOf(input: OfflinePaymentInput, base: OfflinePaymentDoc | null) {
  const upiId =
    input.upiId === undefined
      ? (base?.upiId ?? null)
      : input.upiId === null
        ? null
        : normaliseUpiId(input.upiId);
  const name = input.upiName === undefined ? (base?.upiName ?? null) : input.upiName;
  const upiName = name === null ? null : name.trim() || null;
  if (upiName !== null && (upiName.length > UPI_NAME_MAX || /[\u0000-\u001f\u007f]/.test(upiName)))
    throw invalid(`must be at most ${UPI_NAME_MAX} characters without control characters`, 'upiName');
  return { upiId, upiName };
}

/** The stored settings after `input` (fields left out keep their value); 400 `invalid_offline_payment` when they do not hold together. */
export function validateOfflinePayment(
  input: OfflinePaymentInput,
  base: OfflinePaymentDoc | null,
): OfflinePaymentDoc {
  const enabled = input.enabled ?? base?.enabled ?? false;
  const methods = methodsOf(input.methods, base?.methods ?? []);
  const instructions = input.instructions ?? base?.instructions ?? '';
  if (instructions.length > INSTRUCTIONS_MAX)
    throw invalid(`must be at most ${INSTRUCTIONS_MAX} characters`, 'instructions');
  const payWithinDays = input.payWithinDays ?? base?.payWithinDays ?? DEFAULT_PAY_WITHIN_DAYS;
  if (!Number.isInteger(payWithinDays) || payWithinDays < 1 || payWithinDays > 30)
    throw invalid('must be a whole number of days from 1 to 30', 'payWithinDays');
  const { upiId, upiName } = upiOf(input, base);
  if (enabled && methods.length === 0) throw invalid('must name at least one method when enabled', 'methods');
  if (methods.includes('upi_to_organiser') && upiId === null)
    throw invalid('is needed for upi_to_organiser: the UPI id the buyer pays (name@bank)', 'upiId');
  return { enabled, methods, instructions, payWithinDays, upiId, upiName };
}

export function presentOfflinePayment(doc: OfflinePaymentDoc | null) {
  return {
    enabled: doc?.enabled ?? false,
    methods: doc?.methods ?? [],
    instructions: doc?.instructions ?? '',
    payWithinDays: doc?.payWithinDays ?? DEFAULT_PAY_WITHIN_DAYS,
    upiId: doc?.upiId ?? null,
    upiName: doc?.upiName ?? null,
  };
}

/** Whether the event takes `method` now. */
export function takesOffline(doc: OfflinePaymentDoc | null, method: string): method is OfflineMethod {
  return doc !== null && doc.enabled && (doc.methods as string[]).includes(method);
}
