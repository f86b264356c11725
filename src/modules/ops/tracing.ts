// OpenTelemetry traces, when OTEL_EXPORTER_OTLP_ENDPOINT is set: a span for every request
// (the HTTP instrumentation, named and tagged with the route template by a hook), for every
// outgoing HTTP call (gateway, webhooks) and for every statement a request sends to
// PostgreSQL (the pg instrumentation), exported over OTLP/HTTP in protobuf. server.ts
// imports this module only when the setting is set, so without it no OpenTelemetry code is
// loaded and the requests run no tracing code at all.
import { createRequire } from 'node:module';
import type { IncomingMessage } from 'node:http';
import { trace, type Span } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { NodeSDK } from '@opentelemetry/sdk-node';
import type { FastifyInstance } from 'fastify';
import { redactPath } from '../../lib/logger.js';

export interface Tracing {
  /** Names each request's span after its route template and records the route (`http.route`). */
  traceRoutes(app: FastifyInstance): void;
  /** Sends the spans still buffered and stops. */
  shutdown(): Promise<void>;
}

/** The path attributes of an incoming request's span, without its query string and ids (they can be QR credentials), as the logs have them. */
function redactSpan(span: Span, request: IncomingMessage | { path?: string | null }): void {
  if (!('headers' in request) || request.url === undefined) return; // outgoing calls: addresses we chose
  const path = redactPath(request.url);
  span.setAttribute('http.target', path);
  span.setAttribute('url.path', path);
  span.setAttribute('http.url', path);
  span.setAttribute('url.full', path);
  span.setAttribute('url.query', '');
}

export function startTracing(endpoint: string): Tracing {
  const sdk = new NodeSDK({
    serviceName: 'ticketing-service',
    traceExporter: new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, '')}/v1/traces` }),
    instrumentations: [
      new HttpInstrumentation({
        // Path and query are rewritten when the span ends (see redactSpan).
        applyCustomAttributesOnSpan: (span, request) => redactSpan(span, request as IncomingMessage),
      }),
      // Statements outside a request (the workers' polling) would be a root span each: only those of a traced request.
      new PgInstrumentation({ requireParentSpan: true }),
    ],
  });
  sdk.start();
  // The service imports pg from ES modules, which the instrumentation's require hook does not
  // see: require it once now, so the module every import shares is the patched one.
  createRequire(import.meta.url)('pg');
  return {
    traceRoutes(app) {
      app.addHook('onRequest', (req, _reply, done) => {
        const span = trace.getActiveSpan();
        const route = req.routeOptions.url;
        if (span && route !== undefined) {
          span.setAttribute('http.route', route);
          span.updateName(`${req.method} ${route}`);
        }
        done();
      });
    },
    shutdown: () => sdk.shutdown(),
  };
}
