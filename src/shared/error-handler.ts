// Every failure leaves as JSON `{ error, code }`. Refusals keep their status;
// framework errors are mapped to the right 4xx; anything unexpected is a bare 500
// whose details go to the log under the request id.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { mapPgError } from '../db/pg-errors.js';
import { AppError } from './errors.js';

interface Mapped {
  status: number;
  code: string;
  message: string;
}

const FRAMEWORK_CODES: Record<string, { status: number; code: string; message?: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: 'unsupported_media_type', message: 'Content-Type must be application/json' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'invalid_content_length' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'payload_too_large', message: 'request body is too large' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'invalid_json', message: 'body is empty but Content-Type is application/json' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'invalid_json', message: 'body is not valid JSON' },
  FST_ERR_CTP_INVALID_TYPE: { status: 415, code: 'unsupported_media_type' },
  FST_ERR_CTP_INVALID_HEADER: { status: 400, code: 'invalid_header' },
};

function mapError(err: FastifyError | Error): Mapped | undefined {
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
      message = allowed ? `${path} must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}` : `${path} has a value that is not allowed`;
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

export function registerErrorHandling(app: FastifyInstance, methodsFor: (path: string) => string[]): void {
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
      return reply.code(405).send({ error: `${req.method} is not allowed on ${path}; use ${allowed.join(', ')}`, code: 'method_not_allowed' });
    }
    return reply.code(404).send({ error: `no route ${req.method} ${path}`, code: 'not_found' });
  });
}
