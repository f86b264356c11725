// A resolver that filters outside names (some office and hotel networks) answers "no such
// domain" for everything, and the email check cannot tell that from the truth: every address
// would be refused. So the service asks the resolver for a domain known to exist
// (EMAIL_DNS_CANARY) at start and every few minutes; while the resolver denies it, addresses
// are checked for syntax and reserved domains only, and /readyz, the log and a metric say so.
// Only a definite denial switches the mode on: SERVFAIL, a timeout or a refusal proves nothing
// about the resolver's answers, so they leave the mode as it was.
import type { Logger } from 'pino';
import { Gauge, type Registry } from 'prom-client';
import type { Clock } from '../../lib/clock.js';
import { every, type Loop, type Timers } from '../../lib/every.js';
import type { DnsResolver } from './email-check.js';

/** What one canary lookup says about the resolver. */
export type CanaryAnswer = 'answered' | 'denied' | 'unknown';

/** One lookup's outcome: the number of records, or the resolver's error code. */
export type LookupOutcome = { records: number } | { error: string | undefined };

// Definite "no such records" answers (NXDOMAIN, NOERROR without records).
const NO_RECORDS = new Set(['ENOTFOUND', 'ENODATA']);

/**
 * The canary's MX and A lookups read together: any record means the resolver answers
 * outside names; both definitely empty means it denies the canary; anything else (SERVFAIL,
 * timeout, refusal) tells nothing.
 */
export function canaryAnswer(mx: LookupOutcome, a: LookupOutcome): CanaryAnswer {
  const found = (o: LookupOutcome) => 'records' in o && o.records > 0;
  const none = (o: LookupOutcome) => ('records' in o ? o.records === 0 : NO_RECORDS.has(o.error ?? ''));
  if (found(mx) || found(a)) return 'answered';
  if (none(mx) && none(a)) return 'denied';
  return 'unknown';
}

/** Whether addresses are checked for syntax only after this answer. */
export function reducedAfter(wasReduced: boolean, answer: CanaryAnswer): boolean {
  if (answer === 'denied') return true;
  if (answer === 'answered') return false;
  return wasReduced;
}

/** How the email check runs now: `dns` in full, `off` by EMAIL_DNS_CHECK=false, `reduced` while the resolver denies the canary. */
export type EmailCheckMode = 'dns' | 'off' | 'reduced';

export interface EmailCheckStatus {
  emailCheck: EmailCheckMode;
  /** A sentence for operators, only while the check is reduced. */
  detail?: string;
}

export interface DnsCanaryOptions {
  resolver: DnsResolver;
  /** EMAIL_DNS_CANARY. */
  domain: string;
  /** EMAIL_DNS_CHECK: without it there is nothing to protect and no lookup is made. */
  enabled: boolean;
  clock: Clock;
  logger: Logger;
  registry?: Registry;
  /** How often the canary is asked, by the injected clock. */
  everyMs?: number;
  /** The most one canary lookup waits. */
  timeoutMs?: number;
}

const errorCode = (err: unknown) => (err as NodeJS.ErrnoException | undefined)?.code;

export class DnsCanary {
  readonly #o: Required<Omit<DnsCanaryOptions, 'registry'>>;
  readonly #gauge: Gauge;
  #reduced = false;
  #due = 0;
  #running: Promise<void> | undefined;
  #loop: Loop | undefined;

  constructor(options: DnsCanaryOptions) {
    this.#o = { everyMs: 5 * 60_000, timeoutMs: 1500, ...options };
    this.#gauge = new Gauge({
      name: 'email_dns_check_reduced',
      help: 'Whether the email check is reduced to syntax and reserved domains because the resolver denies EMAIL_DNS_CANARY (1) or not (0)',
      registers: options.registry ? [options.registry] : [],
    });
    this.#gauge.set(0);
  }

  get reduced(): boolean {
    return this.#reduced;
  }

  status(): EmailCheckStatus {
    if (!this.#o.enabled) return { emailCheck: 'off' };
    if (!this.#reduced) return { emailCheck: 'dns' };
    return { emailCheck: 'reduced', detail: reducedSentence(this.#o.domain) };
  }

  /** Asks the canary when it is due by the injected clock (at once the first time); the loop calls it, and tests after moving the clock. */
  async checkIfDue(): Promise<void> {
    if (!this.#o.enabled) return;
    if (this.#running) return this.#running;
    const now = this.#o.clock.now().getTime();
    if (now < this.#due) return;
    this.#due = now + this.#o.everyMs;
    this.#running = this.#ask().finally(() => (this.#running = undefined));
    return this.#running;
  }

  /** Looks every 30 s whether the canary is due (the period itself is kept by the injected clock). */
  start(timers?: Timers): void {
    if (this.#loop || !this.#o.enabled) return;
    this.#loop = every(30_000, () => this.checkIfDue(), {
      firstAfterMs: 30_000,
      onError: (err) => this.#o.logger.error({ err }, 'email DNS canary failed'),
      ...(timers ? { timers } : {}),
    });
  }

  async stop(): Promise<void> {
    const loop = this.#loop;
    this.#loop = undefined;
    await loop?.stop();
  }

  async #ask(): Promise<void> {
    const answer = await this.#lookup();
    const was = this.#reduced;
    this.#reduced = reducedAfter(was, answer);
    this.#gauge.set(this.#reduced ? 1 : 0);
    const { domain } = this.#o;
    if (this.#reduced && !was) this.#o.logger.warn({ canary: domain }, reducedSentence(domain));
    if (!this.#reduced && was)
      this.#o.logger.info(
        { canary: domain },
        `The DNS resolver answers ${domain} again: email addresses are checked through DNS again.`,
      );
    if (answer === 'unknown')
      this.#o.logger.debug(
        { canary: domain },
        'the email DNS canary got no definite answer; the check stays as it was',
      );
  }

  async #lookup(): Promise<CanaryAnswer> {
    const { resolver, domain, timeoutMs } = this.#o;
    const outcome = (ask: () => Promise<unknown[]>): Promise<LookupOutcome> =>
      Promise.resolve()
        .then(ask)
        .then(
          (records) => ({ records: records.length }),
          (err: unknown) => ({ error: errorCode(err) }),
        );
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<CanaryAnswer>((resolve) => {
      timer = setTimeout(resolve, timeoutMs, 'unknown');
    });
    const asked = Promise.all([
      outcome(() => resolver.resolveMx(domain)),
      outcome(() => resolver.resolve4(domain)),
    ]).then(([mx, a]) => canaryAnswer(mx, a));
    try {
      return await Promise.race([asked, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }
}

export const reducedSentence = (domain: string) =>
  `The DNS resolver says ${domain} does not exist, so it probably filters outside names: email addresses are checked for syntax and reserved domains only until it answers ${domain} again (set DNS_SERVERS to a resolver that answers, or EMAIL_DNS_CANARY to a domain it knows).`;
