// The service's logger: pino JSON lines, with paths and secrets redacted. Its own module
// so that server.ts can log before the rest of the service has loaded.
import { pino, type Logger, type LoggerOptions } from 'pino';
import type { Config } from '../config.js';

/**
 * The path as logged: without its query string (check-in lookups carry ticket ids
 * there) and with registration and ticket ids replaced, since such an id is the QR
 * that admits its holder.
 */
export function redactPath(url: string): string {
  return url
    .split('?')[0]!
    .split('/')
    .map((segment, i, all) => {
      // A door pass's token is the second segment of /door/{token} (not /door/assets/… or /door/sw.js).
      if (i === 2 && all[1] === 'door' && segment !== 'assets' && segment !== 'sw.js') return '[redacted]';
      let decoded = segment;
      try {
        decoded = decodeURIComponent(segment); // "%72eg_…" routes as "reg_…"
      } catch {
        // not valid percent-encoding: the router refuses it; judge it as written
      }
      const m = /^(reg|tkt)_/i.exec(decoded);
      return m ? `${m[1]!.toLowerCase()}_[redacted]` : segment;
    })
    .join('/');
}

export function createLogger(config: Config, destination?: NodeJS.WritableStream): Logger {
  const options: LoggerOptions = {
    level: config.logLevel,
    serializers: {
      req: (req: { method?: string; url?: string; ip?: string; id?: string }) => ({
        method: req.method,
        path: typeof req.url === 'string' ? redactPath(req.url) : undefined,
        remoteAddress: req.ip,
      }),
      res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
      err: pino.stdSerializers.err,
    },
    // Keys and tokens never reach the log, whatever a serializer adds later.
    redact: {
      paths: [
        'req.headers["x-api-key"]',
        'req.headers.authorization',
        'req.headers.cookie',
        '*.password',
        '*.idToken',
        '*.key',
      ],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
