// One error type for everything the service refuses on purpose. `code` is a stable
// snake_case word callers can branch on; `extra` carries fields the spec names
// (refusalReason, reason, …) and is merged into the body.
export class AppError extends Error {
  readonly status: number;
  readonly code: string;
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    code: string,
    message: string,
    extra: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.status = status;
    this.code = code;
    this.extra = extra;
    this.headers = headers;
  }
}

export const badRequest = (code: string, message: string, extra?: Record<string, unknown>) =>
  new AppError(400, code, message, extra);
export const unauthorized = (code: string, message: string) => new AppError(401, code, message);
export const forbidden = (code: string, message: string) => new AppError(403, code, message);
export const notFound = (message = 'not found', code = 'not_found') => new AppError(404, code, message);
export const conflict = (code: string, message: string, extra?: Record<string, unknown>) =>
  new AppError(409, code, message, extra);
export const badGateway = (message: string, code = 'gateway_error') => new AppError(502, code, message);
export const unavailable = (code: string, message: string) => new AppError(503, code, message);
