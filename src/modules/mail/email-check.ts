// Can this address receive mail? Refused only when it provably
// cannot: bad syntax, a reserved domain, a domain with nowhere to deliver to, or a null
// MX (RFC 7505). A DNS failure or timeout proves nothing and is accepted.
import { isIP } from 'node:net';
import { Resolver } from 'node:dns/promises';
import { domainToASCII } from 'node:url';

export type EmailRefusalReason = 'syntax' | 'reserved_domain' | 'no_such_domain' | 'null_mx';

export type EmailVerdict =
  | { ok: true; email: string }
  | { ok: false; reason: EmailRefusalReason; message: string };

export interface EmailChecker {
  check(email: string): Promise<EmailVerdict>;
}

/** The three lookups the check makes, as node:dns/promises' Resolver answers them (errors carry its codes). */
export interface DnsResolver {
  resolveMx(name: string): Promise<Array<{ exchange: string; priority: number }>>;
  resolve4(name: string): Promise<string[]>;
  resolve6(name: string): Promise<string[]>;
}

export interface EmailCheckerOptions {
  /** The resolver to ask; without it, one built on dnsServers. */
  resolver?: DnsResolver;
  /** "host:port" (or "[v6]:port"), IP addresses only; empty: the system's resolvers. */
  dnsServers?: readonly string[];
  /** false keeps only the syntax and reserved-domain checks (EMAIL_DNS_CHECK). */
  dnsCheck: boolean;
  /** true while the resolver is not to be believed (it denies EMAIL_DNS_CANARY): syntax and reserved domains only. */
  reduced?: () => boolean;
  /** The most one check waits for DNS, all lookups included. */
  timeoutMs?: number;
  /** How long a definite answer (positive or negative) is kept per domain. */
  cacheTtlMs?: number;
  clock: { now(): Date };
}

/** The longest address accepted, in UTF-8 bytes (RFC 5321's path limit less its brackets). */
export const MAX_EMAIL_LENGTH = 254;

// Only the plain `local@domain` form: a dot-atom local part (RFC 5322) with UTF-8 allowed
// (RFC 6531). No quoted local part, comment, display name or list: each is a way for the
// address checked here and the address a mailer delivers to to differ.
// The classes are disjoint from "." so the pattern cannot backtrack: time is linear.
const ATEXT = String.raw`(?:[A-Za-z0-9!#$%&'*+/=?^_\x60{|}~-]|(?![\p{C}\p{Z}])[^\x00-\x7f])`;
const DOT_ATOM = new RegExp(String.raw`^${ATEXT}+(?:\.${ATEXT}+)*$`, 'u');
// LDH labels (RFC 1123) of the domain's ASCII form.
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
// The TLDs RFC 2606 / RFC 6761 reserve so that they never resolve, bare or as a suffix.
// Only these: example.com/.net/.org are reserved too, but they are real, IANA-run
// domains, and they publish a null MX, so the DNS check already refuses them; the rule
// names the TLDs, and with EMAIL_DNS_CHECK=false nothing is refused beyond it.
const RESERVED_TLDS = new Set(['invalid', 'example', 'localhost', 'test']);

const utf8Length = (s: string) => Buffer.byteLength(s, 'utf8');
// Each refusal's message is a sentence a buyer reads at the field (hosted page, plan page,
// API): what is wrong, and what to do about it.
const syntaxError = (): Extract<EmailVerdict, { ok: false }> => ({
  ok: false,
  reason: 'syntax',
  message:
    'This is not a valid email address, so it cannot receive mail. Please check it for a typing mistake.',
});

/** The domain's ASCII (A-label) form for DNS, or undefined when it is no host name. */
function asciiDomain(domain: string): string | undefined {
  // domainToASCII maps IDNs to punycode and lowercases; it answers '' when it cannot.
  const ascii = /^[\x21-\x7e]*$/.test(domain) ? domain.toLowerCase() : domainToASCII(domain);
  if (ascii === '' || ascii.length > 253) return undefined;
  return ascii.split('.').every((l) => LABEL.test(l)) ? ascii : undefined;
}

type Parsed =
  | { ok: true; email: string; domain: string; ascii: string }
  | Extract<EmailVerdict, { ok: false }>;

function parse(raw: string): Parsed {
  // Length first, in constant time: a megabyte of input is refused before anything scans it.
  // (4 bytes per UTF-16 unit at most; trim() may remove some spaces, hence the margin.)
  if (typeof raw !== 'string' || raw.length > MAX_EMAIL_LENGTH + 64) return syntaxError();
  const email = raw.trim();
  const at = email.indexOf('@');
  // Exactly one "@": a second one can only belong to a quoted local part or a list.
  if (
    at <= 0 ||
    at === email.length - 1 ||
    email.indexOf('@', at + 1) !== -1 ||
    utf8Length(email) > MAX_EMAIL_LENGTH
  )
    return syntaxError();
  const local = email.slice(0, at);
  if (utf8Length(local) > 64 || !DOT_ATOM.test(local)) return syntaxError();
  // A trailing dot is the root; "a@x.in." is "a@x.in".
  const domain = email
    .slice(at + 1)
    .replace(/\.$/, '')
    .toLowerCase();
  const ascii = asciiDomain(domain);
  if (ascii === undefined) return syntaxError(); // also address literals: "[192.0.2.1]"
  const tld = ascii.slice(ascii.lastIndexOf('.') + 1);
  if (RESERVED_TLDS.has(tld)) {
    return {
      ok: false,
      reason: 'reserved_domain',
      message: `The domain ${domain} is reserved and never receives mail, so this address cannot receive mail. Please use another address.`,
    };
  }
  // RFC 5321 wants a fully qualified domain; no public TLD takes mail itself, and an
  // all-digit TLD is an IP address written without brackets.
  if (!ascii.includes('.') || /^\d+$/.test(tld)) return syntaxError();
  // Lowercased whole: the rest of the service (sign-up, memberships, broadcast) compares
  // addresses case-insensitively, and no real mailbox differs by case alone.
  return { ok: true, email: `${local.toLowerCase()}@${domain}`, domain, ascii };
}

/** Syntax and reserved names only; no network. An accepted address comes back normalised. */
export function checkSyntax(raw: string): EmailVerdict {
  const p = parse(raw);
  return p.ok ? { ok: true, email: p.email } : p;
}

type DomainVerdict = { ok: true } | { ok: false; reason: 'no_such_domain' | 'null_mx' | 'no_mail_host' };

const errCode = (err: unknown) => (err as NodeJS.ErrnoException | undefined)?.code;
// Definite "no such records" answers; anything else (ESERVFAIL, ETIMEOUT, EREFUSED,
// ECONNREFUSED, …) says nothing about the domain.
const NO_RECORDS = new Set(['ENODATA', 'ENOTFOUND']);

function parseServers(servers: readonly string[]): string[] {
  // setServers takes IP addresses only; config.ts lets a host name through, so say so here
  // rather than failing later inside the resolver.
  for (const s of servers) {
    const m = /^\[([^\]]+)\](?::\d+)?$/.exec(s) ?? /^([^:]+)(?::\d+)?$/.exec(s);
    if (!m || isIP(m[1]!) === 0)
      throw new Error(`DNS_SERVERS holds "${s}"; each entry must be an IP address with an optional :port`);
  }
  return [...servers];
}

/** A resolver on DNS_SERVERS (the system's when empty) that tries each lookup once, for at most timeoutMs. */
export function createResolver(dnsServers: readonly string[], timeoutMs = 1500): DnsResolver {
  // tries: 1 so that one silent server costs one timeout; the check's own deadline bounds the
  // whole check however c-ares spreads its retries over several servers.
  const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
  if (dnsServers.length > 0) resolver.setServers(parseServers(dnsServers));
  return resolver;
}

export function createEmailChecker(options: EmailCheckerOptions): EmailChecker {
  const timeoutMs = options.timeoutMs ?? 1500;
  const ttlMs = options.cacheTtlMs ?? 10 * 60_000;
  const maxCached = 10_000;
  const cache = new Map<string, { verdict: DomainVerdict; until: number }>();
  const inFlight = new Map<string, Promise<DomainVerdict | undefined>>();
  const resolver = options.resolver ?? createResolver(options.dnsServers ?? [], timeoutMs);

  /** undefined when DNS could not tell: that proves nothing. */
  async function lookup(domain: string): Promise<DomainVerdict | undefined> {
    try {
      const mx = await resolver.resolveMx(domain);
      if (mx.length === 1 && mx[0]!.priority === 0 && (mx[0]!.exchange === '' || mx[0]!.exchange === '.')) {
        return { ok: false, reason: 'null_mx' };
      }
      // Several records, one of them ".": not a valid null MX (RFC 7505 §3), so the
      // other hosts may still take the mail.
      if (mx.length > 0) return { ok: true };
    } catch (err) {
      if (errCode(err) === 'ENOTFOUND') return { ok: false, reason: 'no_such_domain' };
      if (errCode(err) !== 'ENODATA') return undefined;
    }
    // No MX: the domain's own address is the implicit MX (RFC 5321 §5.1). With no A and
    // no AAAA either there is no host to deliver to, and a sending MTA bounces at once.
    const [a, aaaa] = await Promise.allSettled([resolver.resolve4(domain), resolver.resolve6(domain)]);
    const found = (r: PromiseSettledResult<string[]>) => r.status === 'fulfilled' && r.value.length > 0;
    const none = (r: PromiseSettledResult<string[]>) =>
      r.status === 'fulfilled' ? r.value.length === 0 : NO_RECORDS.has(errCode(r.reason) ?? '');
    if (found(a) || found(aaaa)) return { ok: true };
    if (none(a) && none(aaaa)) return { ok: false, reason: 'no_mail_host' };
    return undefined;
  }

  /** The lookup, cut off at the deadline; one lookup per domain at a time. */
  function lookupWithDeadline(domain: string): Promise<DomainVerdict | undefined> {
    const pending = inFlight.get(domain);
    if (pending) return pending;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<undefined>((resolve) => {
      timer = setTimeout(resolve, timeoutMs, undefined);
    });
    const p = Promise.race([lookup(domain).catch(() => undefined), deadline]).finally(() => {
      clearTimeout(timer);
      inFlight.delete(domain);
    });
    inFlight.set(domain, p);
    return p;
  }

  async function domainVerdict(domain: string): Promise<DomainVerdict | undefined> {
    const hit = cache.get(domain);
    if (hit && options.clock.now().getTime() < hit.until) return hit.verdict;
    const verdict = await lookupWithDeadline(domain);
    if (verdict === undefined) return undefined; // failures and timeouts are asked again next time
    cache.delete(domain);
    if (cache.size >= maxCached) cache.delete(cache.keys().next().value!);
    cache.set(domain, { verdict, until: options.clock.now().getTime() + ttlMs });
    return verdict;
  }

  return {
    async check(raw) {
      const p = parse(raw);
      if (!p.ok) return p;
      const accepted: EmailVerdict = { ok: true, email: p.email };
      if (!options.dnsCheck) return accepted;
      if (options.reduced?.()) {
        // Refusals cached before the resolver was found out may be its filtering, not the truth.
        cache.clear();
        return accepted;
      }
      const verdict = await domainVerdict(p.ascii);
      if (verdict === undefined || verdict.ok) return accepted;
      const shown = p.domain;
      switch (verdict.reason) {
        case 'null_mx':
          return {
            ok: false,
            reason: 'null_mx',
            message: `The domain ${shown} declares that it accepts no mail (null MX), so this address cannot receive mail. Please use another address.`,
          };
        case 'no_such_domain':
          return {
            ok: false,
            reason: 'no_such_domain',
            message: `The domain ${shown} does not exist, so this address cannot receive mail. Please check the part after the @ for a typing mistake.`,
          };
        case 'no_mail_host':
          // Reported as no_such_domain: for mail the name is as good as absent, and callers
          // branch on the four reasons of the rule.
          return {
            ok: false,
            reason: 'no_such_domain',
            message: `The domain ${shown} has no mail server (no MX, A or AAAA record), so this address cannot receive mail. Please check the part after the @ for a typing mistake.`,
          };
      }
    },
  };
}
