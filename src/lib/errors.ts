// One error type for everything the service refuses on purpose, and one catalogue of the
// codes it may carry. `code` is a stable snake_case word callers can branch on; its HTTP
// status comes from the catalogue, so the same code always answers the same status.
// `extra` carries fields callers read beside the code (refusalReason, reason, …).

import { ERRORS } from './error-catalogue.js';

export { ERRORS };

export type ErrorCode = keyof typeof ERRORS;
/** The codes whose catalogue status is S. */
export type CodeWithStatus<S extends number> = {
  [K in ErrorCode]: (typeof ERRORS)[K]['status'] extends S ? K : never;
}[ErrorCode];

export class AppError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    message?: string,
    extra: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) {
    super(message ?? ERRORS[code].message);
    this.name = 'AppError';
    this.status = ERRORS[code].status;
    this.code = code;
    this.extra = extra;
    this.headers = headers;
  }
}

/** Any catalogued refusal; the helpers below narrow the code to one status. */
export const appError = (
  code: ErrorCode,
  message?: string,
  extra?: Record<string, unknown>,
  headers?: Record<string, string>,
) => new AppError(code, message, extra, headers);
export const badRequest = (code: CodeWithStatus<400>, message?: string, extra?: Record<string, unknown>) =>
  new AppError(code, message, extra);
export const unauthorized = (code: CodeWithStatus<401>, message?: string) => new AppError(code, message);
export const forbidden = (code: CodeWithStatus<403>, message?: string, extra?: Record<string, unknown>) =>
  new AppError(code, message, extra);
export const notFound = (message?: string, code: CodeWithStatus<404> = 'not_found') =>
  new AppError(code, message);
export const conflict = (code: CodeWithStatus<409>, message?: string, extra?: Record<string, unknown>) =>
  new AppError(code, message, extra);
export const badGateway = (message?: string, code: CodeWithStatus<502> = 'gateway_error') =>
  new AppError(code, message);
export const unavailable = (code: CodeWithStatus<503>, message?: string) => new AppError(code, message);
