// One webhook delivery: resolve the host once, refuse addresses that are not public
// (unless private URLs are allowed for development), connect to exactly the address
// that was checked, send once, follow no redirect, never read the body, and give up
// after the timeout.
import { lookup as dnsLookup, Resolver } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isPublicAddress } from './address-check.js';

export interface DeliveryResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

export type Resolve = (host: string) => Promise<{ address: string; family: number }[]>;

export const systemResolve: Resolve = (host) => dnsLookup(host, { all: true, verbatim: true });

/** Resolution through the given DNS servers (DNS_SERVERS), both families. */
export function serversResolve(servers: readonly string[], timeoutMs = 2000): Resolve {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
  resolver.setServers([...servers]);
  const family = async (fn: () => Promise<string[]>, f: number) => {
    try {
      return (await fn()).map((address) => ({ address, family: f }));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENODATA') return [];
      throw err;
    }
  };
  return async (host) => [
    ...(await family(() => resolver.resolve4(host), 4)),
    ...(await family(() => resolver.resolve6(host), 6)),
  ];
}

export async function deliver(options: {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  allowPrivate: boolean;
  resolve?: Resolve;
  now?: () => number;
}): Promise<DeliveryResult> {
  const now = options.now ?? (() => performance.now());
  const started = now();
  const done = (statusCode: number | null, error: string | null): DeliveryResult => ({
    statusCode,
    error,
    durationMs: Math.round(now() - started),
  });
  let url: URL;
  try {
    url = new URL(options.url);
  } catch {
    return done(null, 'invalid url');
  }
  if (url.protocol !== 'https:' && !(options.allowPrivate && url.protocol === 'http:'))
    return done(null, 'refused: url must be https');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  try {
    addresses = isIP(host)
      ? [{ address: host, family: isIP(host) }]
      : await (options.resolve ?? systemResolve)(host);
  } catch (err) {
    return done(null, `dns: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  if (addresses.length === 0) return done(null, 'dns: no address');
  // Every address must be public: a name that also points inside is refused whole.
  if (!options.allowPrivate) {
    const inside = addresses.find((a) => !isPublicAddress(a.address));
    if (inside) return done(null, `refused: ${host} resolves to non-public address ${inside.address}`);
  }
  const target = addresses[0]!;
  // The socket connects to the address checked above; no second lookup happens.
  const pinned: LookupFunction = (_hostname, opts, cb) => {
    if ((opts as { all?: boolean }).all)
      (cb as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [target]);
    else cb(null, target.address, target.family);
  };
  return new Promise<DeliveryResult>((resolve) => {
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(
      url,
      {
        method: 'POST',
        headers: { ...options.headers, 'content-length': String(Buffer.byteLength(options.body)) },
        lookup: pinned,
        timeout: options.timeoutMs,
        agent: false,
      },
      (res) => {
        // The body is never read: drop the connection as soon as the status is known.
        const code = res.statusCode ?? null;
        res.destroy();
        req.destroy();
        resolve(done(code, null));
      },
    );
    const timer = setTimeout(() => req.destroy(new Error('timeout')), options.timeoutMs);
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (err) => {
      clearTimeout(timer);
      resolve(done(null, err.message === 'timeout' ? `timeout after ${options.timeoutMs} ms` : err.message));
    });
    req.on('close', () => clearTimeout(timer));
    req.end(options.body);
  });
}
