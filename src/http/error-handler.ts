// Every failure leaves as JSON `{ error, code }`. Refusals keep their status;
// framework errors are mapped to the right 4xx; anything unexpected is a bare 500
// whose details go to the log under the request id.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { mapPgError } from '../lib/pg-errors.js';
import { AppError, ERRORS, type ErrorCode } from '../lib/errors.js';

export interface Mapped {
  status: number;
  code: ErrorCode;
  message: string;
  headers: Record<string, string>;
}

const FRAMEWORK_CODES: Record<string, { status: number; code: ErrorCode; message?: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: 'unsupported_media_type',
    message: 'Content-Type must be application/json',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'invalid_content_length' },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    status: 413,
    code: 'payload_too_large',
    message: 'request body is too large',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    status: 400,
    code: 'invalid_json',
    message: 'body is empty but Content-Type is application/json',
  },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'invalid_json', message: 'body is not valid JSON' },
  FST_ERR_CTP_INVALID_TYPE: { status: 415, code: 'unsupported_media_type' },
  FST_ERR_CTP_INVALID_HEADER: { status: 400, code: 'invalid_header' },
};

/**
 * A refusal as the client is told it, whatever raised it (AppError, Fastify, PostgreSQL);
 * undefined for an unexpected fault, which answers a bare 500. The dashboard's pages
 * use it too, to show the same refusals as HTML.
 */
export function describeError(err: FastifyError | Error): Mapped | undefined {
  const mapped = mapError(err);
  if (!mapped) return undefined;
  const headers = err instanceof AppError ? err.headers : (mapPgError(err)?.headers ?? {});
  return { ...mapped, headers };
}

function mapError(err: FastifyError | Error): Omit<Mapped, 'headers'> | undefined {
  if (err instanceof AppError) return { status: err.status, code: err.code, message: err.message };
  const fe = err as FastifyError;
  if (fe.validation) {
    const first = fe.validation[0];
    const where = fe.validationContext ?? 'body';
    const path = first?.instancePath ? `${where}${first.instancePath.replace(/\//g, '.')}` : where;
    let message = `${path} ${first?.message ?? 'is invalid'}`;
    if (first?.keyword === 'additionalProperties') {
      message = `${path} has unknown field "${String((first.params as { additionalProperty?: string }).additionalProperty)}"`;
    } else if (first?.keyword === 'required') {
      message = `${where}${first.instancePath.replace(/\//g, '.')} is missing required field "${String((first.params as { missingProperty?: string }).missingProperty)}"`;
    } else if (first?.keyword === 'enum' || first?.keyword === 'anyOf' || first?.keyword === 'const') {
      const allowed = (first.params as { allowedValues?: unknown[] }).allowedValues;
      message = allowed
        ? `${path} must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`
        : `${path} has a value that is not allowed`;
    }
    return { status: 400, code: 'invalid_request', message };
  }
  if (typeof fe.code === 'string' && FRAMEWORK_CODES[fe.code]) {
    const m = FRAMEWORK_CODES[fe.code]!;
    return { status: m.status, code: m.code, message: m.message ?? fe.message };
  }
  // JSON.parse failures arrive as SyntaxError with statusCode 400.
  if (err instanceof SyntaxError && fe.statusCode === 400) {
    return { status: 400, code: 'invalid_json', message: 'body is not valid JSON' };
  }
  const pg = mapPgError(err);
  if (pg) return { status: pg.status, code: pg.code, message: pg.message };
  const status = fe.statusCode ?? 500;
  if (status >= 400 && status < 500) return { status, code: 'bad_request', message: fe.message };
  return undefined;
}

/** How much of a refused body is read (and dropped) before the connection closes, at most. */
export const DRAIN_MAX_BYTES = 16 * 1024 * 1024;
export const DRAIN_MAX_MS = 5000;

/**
 * Reads and drops what is left of a request body, up to DRAIN_MAX_BYTES or DRAIN_MAX_MS.
 * Closing a connection while the client is still sending makes the kernel answer with a
 * reset, and a client that writes its whole body before reading then never sees the 413.
 */
function drain(body: IncomingMessage): Promise<void> {
  return new Promise((resolve) => {
    let seen = 0;
    const finish = () => {
      clearTimeout(timer);
      body.off('data', onData).off('end', finish).off('error', finish).off('close', finish);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > DRAIN_MAX_BYTES) finish();
    };
    const timer = setTimeout(finish, DRAIN_MAX_MS);
    body.on('data', onData).on('end', finish).on('error', finish).on('close', finish);
    body.resume();
  });
}

export function registerErrorHandling(app: FastifyInstance, methodsFor: (path: string) => string[]): void {
  // Callback style: no promise on the answers (nearly all) that are not a 413.
  app.addHook('onSend', (req, reply, payload, done) => {
    if (reply.statusCode === 413 && !req.raw.complete && !req.raw.destroyed)
      void drain(req.raw).then(() => done(null, payload));
    else done(null, payload);
  });

  app.setErrorHandler((err: FastifyError | Error, req: FastifyRequest, reply: FastifyReply) => {
    const mapped = mapError(err);
    if (!mapped) {
      req.log.error({ err, reqId: req.id }, 'internal error');
      return reply.code(500).send({ error: 'internal error', code: 'internal' });
    }
    if (err instanceof AppError) {
      for (const [h, v] of Object.entries(err.headers)) reply.header(h, v);
    } else {
      const pg = mapPgError(err);
      if (pg) for (const [h, v] of Object.entries(pg.headers)) reply.header(h, v);
    }
    if (mapped.status >= 500) req.log.error({ err, reqId: req.id }, mapped.message);
    const extra = err instanceof AppError ? err.extra : {};
    return reply.code(mapped.status).send({ ...extra, error: mapped.message, code: mapped.code });
  });

  app.setNotFoundHandler(async (req, reply) => {
    const path = req.url.split('?')[0] ?? '/';
    const allowed = methodsFor(path).filter((m) => m !== req.method);
    if (allowed.length > 0) {
      reply.header('allow', allowed.join(', '));
      return reply.code(405).send({
        error: `${req.method} is not allowed on ${path}; use ${allowed.join(', ')}`,
        code: 'method_not_allowed',
      });
    }
    return reply.code(404).send({ error: `no route ${req.method} ${path}`, code: 'not_found' });
  });
}

// Failures Fastify meets before routing (a bad percent-escape in the path, a path
// parameter over the router's length limit) bypass the error handler; without this
// they would answer in Fastify's own shape and without a request id.
const ROUTING_CODES: Record<string, { status: number; code: ErrorCode; message: string }> = {
  FST_ERR_BAD_URL: {
    status: 400,
    code: 'invalid_url',
    message: 'the URL path has an invalid percent-escape',
  },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, code: 'uri_too_long', message: 'a path parameter is too long' },
};

export function frameworkErrors(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  reply.header('x-request-id', req.id);
  const m = ROUTING_CODES[err.code];
  if (!m) {
    req.log.error({ err, reqId: req.id }, 'internal error');
    void reply.code(500).send({ error: 'internal error', code: 'internal' });
    return;
  }
  void reply.code(m.status).send({ error: m.message, code: m.code });
}

/**
 * Requests Node's HTTP parser refuses (not HTTP, headers too large, too slow) never
 * become a request; answer them in the same JSON shape, as Fastify's default does in its own.
 */
export function clientErrorHandler(newRequestId: () => string, logger: Logger) {
  return (err: Error & { code?: string }, socket: Socket): void => {
    // A reset connection has no one left to answer.
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const code: ErrorCode =
      err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? 'request_timeout'
        : err.code === 'HPE_HEADER_OVERFLOW'
          ? 'headers_too_large'
          : 'bad_http_request';
    const { status, message } = ERRORS[code];
    const id = newRequestId();
    logger.debug({ err, reqId: id }, `client error: ${code}`);
    if (socket.writable) {
      const body = JSON.stringify({ error: message, code });
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nx-request-id: ${id}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(err);
  };
}
