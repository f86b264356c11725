// Refusals that several registration operations share.
import { AppError, conflict } from '../../lib/errors.js';

export function soldOut(): AppError {
  return conflict('sold_out', 'no seats left for this booking');
}
