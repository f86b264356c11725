// Refusals that several registration operations share.
import { AppError, badGateway, conflict } from '../../shared/errors.js';
import { GatewayError } from '../payments/gateway.js';

export function soldOut(): AppError {
  return conflict('sold_out', 'no seats left for this booking');
}

export function paymentNotVerified(message: string): AppError {
  return new AppError(402, 'payment_not_verified', message);
}

/** A gateway failure as a 502 (nothing changed); other errors pass through. */
export function gatewayFailure(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof GatewayError) {
    return badGateway(err.kind === 'timeout' ? 'the payment gateway did not answer in time; nothing changed' : 'the payment gateway failed; nothing changed');
  }
  throw err;
}
