// One HTTP client for Razorpay's REST APIs (payments and RazorpayX payouts): Basic auth
// with the service's key id and secret, JSON bodies, a timeout, no redirects. Failures
// become GatewayError (timeout, network, server, rejected); the secret never appears in one.
import { GatewayError } from './gateway.js';

export interface RazorpayClientOptions {
  apiUrl: string;
  keyId: string;
  keySecret: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

interface RazorpayError {
  error?: { code?: string; description?: string; field?: string };
}

export type RazorpayCall = <T>(
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<T>;

/** `name` says which API failed in error messages ("Razorpay", "RazorpayX"). */
export function razorpayClient(options: RazorpayClientOptions, name: string): RazorpayCall {
  const base = options.apiUrl.replace(/\/+$/, '');
  const auth = 'Basic ' + Buffer.from(`${options.keyId}:${options.keySecret}`).toString('base64');
  const timeoutMs = options.timeoutMs ?? 10_000;
  const fetchFn = options.fetch ?? fetch;
  return async <T>(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<T> => {
    let res: Response;
    try {
      res = await fetchFn(base + path, {
        method,
        headers: {
          authorization: auth,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
        redirect: 'error',
      });
    } catch (err) {
      const kind = (err as Error).name;
      if (kind === 'TimeoutError' || kind === 'AbortError')
        throw new GatewayError(
          'timeout',
          `${name} did not answer ${method} ${path.split('/').slice(0, 3).join('/')} within ${timeoutMs} ms`,
        );
      throw new GatewayError('network', `${name} could not be reached: ${(err as Error).message}`);
    }
    let parsed: unknown;
    try {
      parsed = await res.json();
    } catch {
      parsed = undefined;
    }
    if (res.ok && parsed && typeof parsed === 'object') return parsed as T;
    const error = (parsed as RazorpayError | undefined)?.error;
    const description = error?.description ?? `HTTP ${res.status}`;
    if (res.status >= 500)
      throw new GatewayError('server', `${name} failed: ${description}`, res.status, error?.code);
    throw new GatewayError('rejected', description, res.status, error?.code);
  };
}
