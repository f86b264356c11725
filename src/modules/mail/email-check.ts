// Can this address receive mail? (product-decisions §5) Refused only when it provably
// cannot: bad syntax, a reserved domain, a domain that does not exist, or a null MX
// (RFC 7505). A DNS failure or timeout proves nothing and is accepted. Answers are
// cached per domain; failures are not.
import { Resolver } from 'node:dns/promises';

export type EmailVerdict =
  | { ok: true; email: string }
  | { ok: false; reason: 'syntax' | 'reserved_domain' | 'no_such_domain' | 'null_mx'; message: string };

export interface EmailChecker {
  check(email: string): Promise<EmailVerdict>;
}

const LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
// RFC 2606 / 6761 names that never deliver mail. (example.com and friends are real
// registered domains, so they are left to DNS.)
const RESERVED_TLDS = new Set(['invalid', 'example', 'localhost', 'test']);

/** Syntax and reserved names only; no network. */
export function checkSyntax(raw: string): EmailVerdict {
  const email = raw.trim();
  const at = email.lastIndexOf('@');
  if (at <= 0 || at === email.length - 1 || email.length > 254) return { ok: false, reason: 'syntax', message: 'not a valid email address' };
  const local = email.slice(0, at);
  const domain = email.slice(at + 1).toLowerCase().replace(/\.$/, '');
  const labels = domain.split('.');
  if (local.length > 64 || !LOCAL.test(local) || labels.length < 2 || !labels.every((l) => LABEL.test(l)) || /^\d+$/.test(labels.at(-1)!)) {
    return { ok: false, reason: 'syntax', message: 'not a valid email address' };
  }
  if (RESERVED_TLDS.has(labels.at(-1)!)) return { ok: false, reason: 'reserved_domain', message: `${domain} is a reserved domain that receives no mail` };
  // Stored lowercased: addresses are compared case-insensitively everywhere.
  return { ok: true, email: `${local}@${domain}`.toLowerCase() };
}

type DomainVerdict = { ok: true } | { ok: false; reason: 'no_such_domain' | 'null_mx' };

export function createEmailChecker(options: {
  dnsServers: readonly string[];
  dnsCheck: boolean;
  clock: { now(): Date };
  timeoutMs?: number;
  cacheTtlMs?: number;
}): EmailChecker {
  const timeoutMs = options.timeoutMs ?? 1500;
  const ttl = options.cacheTtlMs ?? 10 * 60_000;
  const cache = new Map<string, { verdict: DomainVerdict; until: number }>();
  const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
  if (options.dnsServers.length > 0) resolver.setServers([...options.dnsServers]);

  /** undefined when DNS could not tell (failure, timeout): that proves nothing. */
  async function lookup(domain: string): Promise<DomainVerdict | undefined> {
    try {
      const mx = await resolver.resolveMx(domain);
      if (mx.length === 1 && (mx[0]!.exchange === '' || mx[0]!.exchange === '.')) return { ok: false, reason: 'null_mx' };
      return { ok: true };
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOTFOUND') return { ok: false, reason: 'no_such_domain' };
      if (code !== 'ENODATA') return undefined;
    }
    // No MX: mail goes to the address records (RFC 5321 §5.1). A name that exists
    // without them is not proof enough to refuse.
    return { ok: true };
  }

  async function withTimeout<T>(p: Promise<T>): Promise<T | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), timeoutMs + 100);
    });
    try {
      return await Promise.race([p, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    async check(raw) {
      const syntax = checkSyntax(raw);
      if (!syntax.ok || !options.dnsCheck) return syntax;
      const domain = syntax.email.slice(syntax.email.lastIndexOf('@') + 1);
      const now = options.clock.now().getTime();
      let entry = cache.get(domain);
      if (!entry || entry.until <= now) {
        const verdict = await withTimeout(lookup(domain).catch(() => undefined));
        if (verdict === undefined) return syntax;
        if (cache.size > 10_000) cache.clear();
        entry = { verdict, until: now + ttl };
        cache.set(domain, entry);
      }
      if (entry.verdict.ok) return syntax;
      return entry.verdict.reason === 'null_mx'
        ? { ok: false, reason: 'null_mx', message: `${domain} declares that it accepts no mail (null MX)` }
        : { ok: false, reason: 'no_such_domain', message: `the domain ${domain} does not exist` };
    },
  };
}
