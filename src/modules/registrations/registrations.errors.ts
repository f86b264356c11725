// Refusals that several registration operations share.
import { AppError, conflict } from '../../shared/errors.js';

export function soldOut(): AppError {
  return conflict('sold_out', 'no seats left for this booking');
}
