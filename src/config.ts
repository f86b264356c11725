// The only reader of process.env. Every variable is parsed
// here; a bad value stops start-up with one line naming the variable.
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { isLoopbackHost } from './http/client-address.js';
import { DEFAULT_TIME_ZONE, isTimeZone } from './lib/event-time.js';
import { loadWallet, loadWhatsApp, type WalletConfig, type WhatsAppConfig } from './config-channels.js';
import { ConfigError } from './config-error.js';
import { backgroundSettings } from './config-background.js';
import type { PartitionSettings } from './db/partitions.js';
import { bool, type Env, int, parseTrustProxy, persistentSecret, str, url } from './config-read.js';

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly baseUrl: string;
  readonly databaseUrl: string | undefined;
  /** A streaming replica the read-only reports read from (src/db/read-pool.ts); unset: the primary. */
  readonly databaseReadUrl: string | undefined;
  readonly dataDir: string;
  readonly smtpUrl: string | undefined;
  readonly mailFrom: string;
  readonly redisUrl: string | undefined;
  readonly razorpay: {
    readonly keyId: string | undefined;
    readonly keySecret: string | undefined;
    readonly webhookSecret: string | undefined;
    readonly apiUrl: string;
    readonly timeoutMs: number;
  };
  readonly payouts: {
    /** The RazorpayX account payouts are drawn from; without it live payouts answer 503. */
    readonly razorpayxAccountNumber: string | undefined;
    /** Working days (Mon–Fri) before net proceeds are available; 0 = at once. */
    readonly clearingDays: number;
  };
  readonly sessionSecret: string;
  readonly secretsKey: Buffer;
  readonly staffEmails: readonly string[];
  /** When set, GET /metrics needs `Authorization: Bearer <it>`. */
  readonly metricsToken: string | undefined;
  /**
   * METRICS_PUBLIC=true: /metrics may be open to anyone who can reach HOST. Without it, a HOST
   * other machines can reach and no METRICS_TOKEN stop start-up.
   */
  readonly metricsPublic: boolean;
  /** OTEL_EXPORTER_OTLP_ENDPOINT: where traces go (OTLP over HTTP, protobuf); unset, no tracing code is even loaded. */
  readonly otelEndpoint: string | undefined;
  readonly webhookAllowPrivateUrls: boolean;
  readonly dnsServers: readonly string[];
  readonly emailDnsCheck: boolean;
  /** EMAIL_DNS_CANARY: a domain known to exist; while the resolver denies it, the email check keeps to syntax and reserved domains. */
  readonly emailDnsCanary: string;
  /** RATE_LIMIT_PER_MINUTE: requests per minute per key, per session, and per client address without either. */
  readonly rateLimitPerMinute: number;
  /** RATE_LIMIT_PER_ACCOUNT_MINUTE: requests per minute over all of an account's keys (default 3 × the per-key limit). */
  readonly rateLimitPerAccountMinute: number;
  /** SIGNUP_LIMIT_PER_HOUR: sign-ups per client address (an IPv6 client by its /64) per hour. */
  readonly signupLimitPerHour: number;
  /** VERIFY_MAIL_LIMIT_PER_HOUR: verification mails per email address per hour, the sign-up's own and resends. */
  readonly verifyMailLimitPerHour: number;
  readonly broadcastMaxRecipients: number;
  readonly workers: boolean;
  /** Monthly partitions: months made ahead, months kept (src/config-background.ts). */
  readonly partitions: PartitionSettings;
  /** JOB_BATCH_SIZE: how many due jobs a worker claims and runs side by side at a time. */
  readonly jobBatchSize: number;
  readonly logLevel: string;
  /** The time zone events are shown in (pages, mails, calendar links): events carry none of their own. */
  readonly eventTimeZone: string;
  /**
   * Behind a load balancer: false (the connection's address is the client's), the number
   * of proxy hops in front, or the proxies' addresses and CIDRs. Never "trust everything".
   */
  readonly trustProxy: false | number | readonly string[];
  /** How long a connection may hold the server, and how many may be open at once. */
  readonly http: {
    /** The whole request (headers and body) must arrive within this; headers within min(10 s, this). */
    readonly requestTimeoutMs: number;
    /** MAX_CONNECTIONS: open connections at once, whichever accept queue took them. */
    readonly maxConnections: number;
    /**
     * MAX_CONNECTIONS_PER_ADDRESS: open connections from one client address (an IPv6 client by
     * its /64). Not applied to the proxies TRUST_PROXY names, nor to any peer when TRUST_PROXY
     * is a hop count (every peer is then a proxy carrying many clients).
     */
    readonly maxConnectionsPerAddress: number;
    /** ACCEPT_QUEUES: SO_REUSEPORT sockets listening on the port (1: one plain socket). */
    readonly acceptQueues: number;
  };
  /**
   * How long a paid booking is payable after step 1; then the reconciliation sweep
   * cancels it and releases its promo code's use (a payment that still arrives is refunded).
   */
  readonly checkoutWindowMinutes: number;
  /** SEAT_HOLD_MINUTES: how long chosen seats stay held before they lapse by themselves. */
  readonly seatHoldMinutes: number;
  /** HELD_SEATS_PER_ADDRESS: how many seats of an event one client address may hold at once from a browser (0: no limit). */
  readonly heldSeatsPerAddress: number;
  /** How long this process remembers an event's seat statuses (SEAT_STATUS_MEMORY_MS; 0: never). */
  readonly seatStatusMemoryMs: number;
  /** The waiting room (docs/decisions/26-a-fair-waiting-room.md): its challenge's difficulty and joins per address a minute. */
  readonly waitingRoom: { readonly powMaxNumber: number; readonly joinsPerAddressMinute: number };
  /** How long this process remembers an event found full (SOLD_OUT_MEMORY_MS; 0: never). */
  readonly soldOutMemoryMs: number;
  /** DATABASE_POOL_SIZE: connections each instance's pool may open. */
  readonly databasePoolSize: number;
  /** How often each instance compares its door rosters' versions with the database's (a missed notification). */
  readonly doorRosterCheckMs: number;
  /** DOOR_ROSTER_MAX_PEOPLE: people held in this instance's in-memory door rosters, all events together (least recently used dropped first). */
  readonly doorRosterMaxPeople: number;
  readonly reconcile: {
    /** How long an order may stay unpaid before the gateway is asked about it. */
    readonly afterMinutes: number;
    /** How often the workers sweep (and once on start); 0: this instance never sweeps on its own. */
    readonly everySeconds: number;
  };
  /** Apple and Google Wallet passes; each undefined when its settings are absent (no wallet links then). */
  readonly wallet: WalletConfig;
  /** WhatsApp tickets and their status webhooks. */
  readonly whatsapp: WhatsAppConfig;
}

export { ConfigError };

export function loadConfig(env: Env = process.env): Config {
  const port = int(env, 'PORT', 3000, 0, 65535);
  const host = str(env, 'HOST') ?? '127.0.0.1';
  const baseUrl = url(env, 'BASE_URL', ['http:', 'https:']) ?? `http://localhost:${port}`;
  const databaseUrl = url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  const dataDir = resolve(str(env, 'DATA_DIR') ?? './data');
  try {
    mkdirSync(dataDir, { recursive: true });
  } catch (err) {
    throw new ConfigError('DATA_DIR', `cannot be created: ${(err as Error).message}`);
  }
  const logLevel = str(env, 'LOG_LEVEL') ?? 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of fatal, error, warn, info, debug, trace, silent`);
  }
  const eventTimeZone = str(env, 'EVENT_TIME_ZONE') ?? DEFAULT_TIME_ZONE;
  if (!isTimeZone(eventTimeZone))
    throw new ConfigError(
      'EVENT_TIME_ZONE',
      `must be an IANA time zone name such as Asia/Kolkata, got "${eventTimeZone}"`,
    );

  return Object.freeze({
    port,
    host,
    baseUrl,
    databaseUrl,
    databaseReadUrl: url(env, 'DATABASE_READ_URL', ['postgres:', 'postgresql:']),
    dataDir,
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    ...mailSettings(env),
    ...paymentSettings(env),
    ...accessSettings(env, host, dataDir),
    ...limitSettings(env),
    otelEndpoint: url(env, 'OTEL_EXPORTER_OTLP_ENDPOINT', ['http:', 'https:']),
    webhookAllowPrivateUrls: bool(env, 'WEBHOOK_ALLOW_PRIVATE_URLS', false),
    ...backgroundSettings(env),
    logLevel,
    eventTimeZone,
    trustProxy: parseTrustProxy(str(env, 'TRUST_PROXY')),
    checkoutWindowMinutes: int(env, 'CHECKOUT_WINDOW_MINUTES', 30, 1, 10_080),
    seatHoldMinutes: int(env, 'SEAT_HOLD_MINUTES', 10, 1, 120),
    heldSeatsPerAddress: int(env, 'HELD_SEATS_PER_ADDRESS', 100, 0, 100_000),
    seatStatusMemoryMs: int(env, 'SEAT_STATUS_MEMORY_MS', 1000, 0, 10_000),
    waitingRoom: waitingRoomSettings(env),

    soldOutMemoryMs: int(env, 'SOLD_OUT_MEMORY_MS', 1000, 0, 10_000),
    databasePoolSize: int(env, 'DATABASE_POOL_SIZE', 20, 1, 500),
    doorRosterCheckMs: int(env, 'DOOR_ROSTER_CHECK_MS', 2_000, 20, 600_000),
    doorRosterMaxPeople: int(env, 'DOOR_ROSTER_MAX_PEOPLE', 500_000, 1, 100_000_000),
    reconcile: Object.freeze({
      afterMinutes: int(env, 'RECONCILE_AFTER_MINUTES', 30, 0, 10_080),
      everySeconds: int(env, 'RECONCILE_EVERY_SECONDS', 300, 0, 86_400),
    }),
    wallet: loadWallet(env),
    whatsapp: loadWhatsApp(
      env,
      url(env, 'WHATSAPP_API_URL', ['http:', 'https:']) ?? 'https://graph.facebook.com/v25.0',
    ),
  });
}

/** Mail: SMTP, the sender, and how addresses are checked (DNS_SERVERS, EMAIL_DNS_CHECK, EMAIL_DNS_CANARY). */
function mailSettings(
  env: Env,
): Pick<Config, 'smtpUrl' | 'mailFrom' | 'dnsServers' | 'emailDnsCheck' | 'emailDnsCanary'> {
  const mailFrom = str(env, 'MAIL_FROM') ?? 'tickets@localhost';
  if (!/^[^\s@<>]+@[^\s@<>]+$/.test(mailFrom)) throw new ConfigError('MAIL_FROM', 'must be an email address');
  const dnsServers = (str(env, 'DNS_SERVERS') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  for (const s of dnsServers) {
    // Node's resolver takes addresses, not names: an IPv4 address or a bracketed IPv6 one, with an optional port.
    const m = /^(?:\[([0-9a-fA-F:.]+)\]|(\d{1,3}(?:\.\d{1,3}){3}))(?::(\d{1,5}))?$/.exec(s);
    if (!m || isIP(m[1] ?? m[2] ?? '') === 0)
      throw new ConfigError('DNS_SERVERS', `holds "${s}", which is not an IP address with an optional :port`);
  }
  const emailDnsCanary = (str(env, 'EMAIL_DNS_CANARY') ?? 'gmail.com').toLowerCase().replace(/\.$/, '');
  // A host name of LDH labels with at least one dot: what the resolver is asked as it is.
  if (
    !/^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(
      emailDnsCanary,
    )
  ) {
    throw new ConfigError(
      'EMAIL_DNS_CANARY',
      `holds "${emailDnsCanary}", which is not a domain name such as gmail.com`,
    );
  }
  return {
    smtpUrl: url(env, 'SMTP_URL', ['smtp:', 'smtps:']),
    mailFrom,
    dnsServers: Object.freeze(dnsServers),
    emailDnsCheck: bool(env, 'EMAIL_DNS_CHECK', true),
    emailDnsCanary,
  };
}

/** Razorpay (payments, refunds, subscriptions) and RazorpayX (payouts). */
function paymentSettings(env: Env): Pick<Config, 'razorpay' | 'payouts'> {
  const keyId = str(env, 'RAZORPAY_KEY_ID');
  const keySecret = str(env, 'RAZORPAY_KEY_SECRET');
  if ((keyId === undefined) !== (keySecret === undefined)) {
    throw new ConfigError(
      keyId ? 'RAZORPAY_KEY_SECRET' : 'RAZORPAY_KEY_ID',
      'must be set together with its pair',
    );
  }
  const razorpayxAccountNumber = str(env, 'RAZORPAYX_ACCOUNT_NUMBER');
  if (razorpayxAccountNumber !== undefined && !/^[A-Za-z0-9]{4,40}$/.test(razorpayxAccountNumber)) {
    throw new ConfigError('RAZORPAYX_ACCOUNT_NUMBER', 'must be 4 to 40 letters or digits');
  }
  return {
    razorpay: Object.freeze({
      keyId,
      keySecret,
      webhookSecret: str(env, 'RAZORPAY_WEBHOOK_SECRET'),
      apiUrl: url(env, 'RAZORPAY_API_URL', ['http:', 'https:']) ?? 'https://api.razorpay.com',
      timeoutMs: int(env, 'RAZORPAY_TIMEOUT_MS', 10_000, 100, 120_000),
    }),
    payouts: Object.freeze({
      razorpayxAccountNumber,
      clearingDays: int(env, 'PAYOUT_CLEARING_DAYS', 2, 0, 60),
    }),
  };
}

/** Secrets (kept in DATA_DIR when not given), staff, and who may read /metrics. */
function accessSettings(
  env: Env,
  host: string,
  dataDir: string,
): Pick<Config, 'sessionSecret' | 'secretsKey' | 'staffEmails' | 'metricsToken' | 'metricsPublic'> {
  const secretsKeyText = persistentSecret(env, 'SECRETS_KEY', dataDir, 'secrets-key', 32);
  const staffEmails = (str(env, 'STAFF_EMAILS') ?? '')
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter((e) => e !== '');
  for (const e of staffEmails) {
    if (!/^[^\s@]+@[^\s@]+$/.test(e))
      throw new ConfigError('STAFF_EMAILS', `holds "${e}", which is not an email address`);
  }
  const metricsToken = str(env, 'METRICS_TOKEN');
  const metricsPublic = bool(env, 'METRICS_PUBLIC', false);
  // Open metrics tell anyone who can connect the service's traffic, queues and failures.
  if (metricsToken === undefined && !metricsPublic && !isLoopbackHost(host)) {
    throw new ConfigError(
      'METRICS_TOKEN',
      `must be set when HOST (${host}) is reachable from other machines, so /metrics is not open to them; or set METRICS_PUBLIC=true to serve it to anyone`,
    );
  }
  return {
    sessionSecret: persistentSecret(env, 'SESSION_SECRET', dataDir, 'session-secret', 32),
    // Any text of 32+ characters is hashed to a 32-byte AES key.
    secretsKey: createHash('sha256').update(secretsKeyText).digest(),
    staffEmails: Object.freeze(staffEmails),
    metricsToken,
    metricsPublic,
  };
}

/** Request limits and the HTTP server's timeouts and connection caps. */
function limitSettings(
  env: Env,
): Pick<
  Config,
  | 'rateLimitPerMinute'
  | 'rateLimitPerAccountMinute'
  | 'signupLimitPerHour'
  | 'verifyMailLimitPerHour'
  | 'broadcastMaxRecipients'
  | 'http'
> {
  const rateLimitPerMinute = int(env, 'RATE_LIMIT_PER_MINUTE', 600, 1, 1_000_000);
  return {
    rateLimitPerMinute,
    rateLimitPerAccountMinute: int(
      env,
      'RATE_LIMIT_PER_ACCOUNT_MINUTE',
      3 * rateLimitPerMinute,
      1,
      100_000_000,
    ),
    signupLimitPerHour: int(env, 'SIGNUP_LIMIT_PER_HOUR', 10, 1, 1_000_000),
    verifyMailLimitPerHour: int(env, 'VERIFY_MAIL_LIMIT_PER_HOUR', 5, 1, 1_000_000),
    broadcastMaxRecipients: int(env, 'BROADCAST_MAX_RECIPIENTS', 2000, 1, 1_000_000),
    http: Object.freeze({
      requestTimeoutMs: int(env, 'REQUEST_TIMEOUT_MS', 30_000, 100, 600_000),
      maxConnections: int(env, 'MAX_CONNECTIONS', 10_000, 1, 1_000_000),
      maxConnectionsPerAddress: int(env, 'MAX_CONNECTIONS_PER_ADDRESS', 256, 1, 1_000_000),
      acceptQueues: int(env, 'ACCEPT_QUEUES', 16, 1, 64),
    }),
  };
}

/** The waiting room's proof-of-work difficulty and joins per address a minute. */
function waitingRoomSettings(env: Env): Config['waitingRoom'] {
  return Object.freeze({
    powMaxNumber: int(env, 'WAITING_ROOM_POW_MAX_NUMBER', 100_000, 10, 100_000_000),
    joinsPerAddressMinute: int(env, 'WAITING_ROOM_JOINS_PER_ADDRESS_MINUTE', 20, 1, 1_000_000),
  });
}
