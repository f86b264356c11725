// What each setting means, for the people who set them. loadConfig (config.ts) reads and checks the
// values; this table only describes them. `npm run docs` (scripts/docs-reference.mjs) joins the two
// into docs/reference/configuration.md: the names, defaults and accepted values it reads from the
// calls in config.ts and config-channels.ts, the words from here. It fails when a setting read there
// is missing here or the other way round, or when a default written here disagrees with the literal
// default in the code. Descriptions are Markdown; links are relative to docs/reference/.

/** The variables (several when described together), what applies when unset, and what it does. */
export type SettingDoc = readonly [names: readonly string[], unset: string, meaning: string];

export interface SettingGroup {
  readonly title: string;
  readonly settings: readonly SettingDoc[];
}

export const SETTING_GROUPS: readonly SettingGroup[] = [
  {
    title: 'Where it listens',
    settings: [
      [
        ['PORT', 'HOST'],
        '`3000` / `127.0.0.1`',
        'where the HTTP server listens (with `ACCEPT_QUEUES` sockets on the port, one on Node.js before 22.12; a port already in use fails at start with `EADDRINUSE` as usual). A `HOST` other machines can reach (anything but `127.0.0.0/8`, `::1`, `localhost`) needs `METRICS_TOKEN` or `METRICS_PUBLIC=true`, else start-up stops',
      ],
      [
        ['ACCEPT_QUEUES'],
        '`16`',
        '`SO_REUSEPORT` sockets accepting connections on the port (`1`: one plain socket). Several take a burst of new connections in a few turns of the event loop instead of one turn per connection (`src/http/accept-queues.ts`)',
      ],
      [
        ['BASE_URL'],
        '`http://localhost:$PORT`',
        'public address used in links, emails and the OpenAPI `servers`',
      ],
      [
        ['TRUST_PROXY'],
        '`false`',
        'behind a load balancer: the proxies\' addresses or CIDRs (`10.0.0.0/8,192.168.1.7`), or the number of proxy hops in front (`1`), so the client IP is taken from `X-Forwarded-For`. `true` ("trust everyone") is refused: any client could then choose its address',
      ],
      [
        ['REQUEST_TIMEOUT_MS'],
        '`30000`',
        "a request's headers and body must arrive within this (headers within 10 s, or this if shorter), else 408 and the connection closes; idle keep-alive connections close after 72 s",
      ],
      [
        ['MAX_CONNECTIONS'],
        '`10000`',
        'connections open at once per instance, whichever accept queue took them; one more is closed on arrival, unanswered',
      ],
      [
        ['MAX_CONNECTIONS_PER_ADDRESS'],
        '`256`',
        'connections open at once from one client address (an IPv6 client by its /64); not applied to the proxies `TRUST_PROXY` names, nor to any peer when `TRUST_PROXY` is a hop count',
      ],
    ],
  },
  {
    title: 'Storage',
    settings: [
      [
        ['DATABASE_URL'],
        'unset: the service runs its own PostgreSQL server with its data in `$DATA_DIR/db`, reachable only through a Unix socket there',
        '`postgres://…` runs on that PostgreSQL server instead',
      ],
      [
        ['DATABASE_READ_URL'],
        'unset: every read is from the database above',
        '`postgres://…` of a streaming replica: the CSV exports, event analytics, the GSTR-1 summary and the audit log read from it (answering `X-Replica-Lag`, how many seconds it is behind); nothing that decides (seats, payments, the door, bookings, balances) ever does',
      ],
      [['DATA_DIR'], '`./data`', 'embedded database, generated secrets, mail sink'],
      [
        ['DATABASE_POOL_SIZE'],
        '`20`',
        "connections each instance's pool may open to the database (its door listener holds one more, and so does a door roster's whole read while it runs); with several instances on one server, keep their sum under the server's `max_connections`",
      ],
      [
        ['REDIS_URL'],
        'unset: rate limits kept in process',
        'shared rate-limit counters across instances (request limits, failed sign-ins per account and address, reset and verification mail limits)',
      ],
    ],
  },
  {
    title: 'Mail and addresses',
    settings: [
      [
        ['SMTP_URL'],
        'unset: each mail is written as an `.eml` file under `$DATA_DIR/mail`',
        '`smtp://user:pass@host:port` (or `smtps://`) sends through SMTP',
      ],
      [['MAIL_FROM'], '`tickets@localhost`', 'sender address'],
      [
        ['DNS_SERVERS'],
        'system resolvers',
        'comma list of `address:port` (IPv6 in brackets) used for the email deliverability check and for resolving webhook hosts',
      ],
      [['EMAIL_DNS_CHECK'], '`true`', '`false` keeps only the syntax and reserved-domain checks'],
      [
        ['EMAIL_DNS_CANARY'],
        '`gmail.com`',
        'a domain known to exist, asked at start and every 5 minutes: while the resolver denies it (a network that filters outside names), addresses are checked for syntax and reserved domains only, with a warning in the log, `emailCheck: "reduced"` in `/readyz` and `email_dns_check_reduced 1` (see [the email check](../operations/email-check.md))',
      ],
      [
        ['EVENT_TIME_ZONE'],
        '`Asia/Kolkata`',
        'the IANA time zone events are shown in — the hosted page, its confirmation, ticket and membership mails, the attendee page and its cutoff, calendar links, wallet passes — labelled by its short name (`IST`). Events carry no zone of their own; a bare `YYYY-MM-DD` stays a whole day in any zone',
      ],
    ],
  },
  {
    title: 'Payments, payouts and reconciliation',
    settings: [
      [
        ['RAZORPAY_KEY_ID', 'RAZORPAY_KEY_SECRET', 'RAZORPAY_WEBHOOK_SECRET'],
        'unset: a paid live event cannot be published and live-mode payments are refused (409 `payments_not_configured`, with a message for buyers that names no setting); without the webhook secret no notification can be verified (400 `invalid_signature`, a warning logged)',
        "the service's own gateway account (id and secret must be set together)",
      ],
      [
        ['RAZORPAY_API_URL'],
        '`https://api.razorpay.com`',
        "the gateway's base address (tests point it at a local emulator)",
      ],
      [
        ['RAZORPAY_TIMEOUT_MS'],
        '`10000`',
        'how long a call to the gateway may take before it counts as failed (502, nothing changes)',
      ],
      [
        ['RAZORPAYX_ACCOUNT_NUMBER'],
        'unset: live payouts answer 503 `payouts_not_configured`',
        'the RazorpayX account payouts are drawn from (with `RAZORPAY_KEY_ID`/`SECRET`, same API address)',
      ],
      [
        ['PAYOUT_CLEARING_DAYS'],
        '`2`',
        'working days (Monday–Friday, India time; holidays not modelled) after capture before net proceeds are `available`; `0` makes them available at once',
      ],
      [
        ['CHECKOUT_WINDOW_MINUTES'],
        '`30`',
        "how long a paid booking is payable after step 1; then the reconciliation sweep cancels it and releases its promo code's use (a payment that still arrives is refunded in full). Registration orders are looked at by then even when `RECONCILE_AFTER_MINUTES` is longer",
      ],
      [
        ['SEAT_HOLD_MINUTES'],
        '`10`',
        'reserved seating: how long seats chosen on the map (or by best available) stay held under their hold token before they lapse by themselves; test mode counts on the sandbox clock',
      ],
      [
        ['HELD_SEATS_PER_ADDRESS'],
        '`100`',
        'reserved seating: how many seats of one event a client address (as the service sees it, after `TRUST_PROXY`) may hold at once from a browser (a checkout key or the hosted page); beyond it a hold answers 429 `too_many_holds`. A hold booked, let go or lapsed no longer counts. `0`: no limit',
      ],
      [
        ['RECONCILE_AFTER_MINUTES'],

        '`30`',
        'how long an order may stay unpaid before the reconciliation job asks the gateway about it',
      ],
      [
        ['RECONCILE_EVERY_SECONDS'],
        '`300`',
        'how often the workers run the reconciliation sweep (also once on start); one instance sweeps at a time. `0`: this instance never sweeps on its own, not even on start — for an operator who runs the sweep elsewhere (another instance, or `POST /admin/api/reconciliation/sweep`)',
      ],
    ],
  },
  {
    title: 'Secrets and access',
    settings: [
      [
        ['SESSION_SECRET'],
        'generated once and kept in `$DATA_DIR/session-secret`',
        "signs dashboard session tokens, the dashboard's CSRF tokens and the `svc_device` cookie (32+ characters); changing it ends every idToken and device standing",
      ],
      [
        ['SECRETS_KEY'],
        'generated once and kept in `$DATA_DIR/secrets-key`',
        'encrypts webhook signing secrets at rest (32+ characters)',
      ],
      [
        ['STAFF_EMAILS'],
        'empty',
        'comma list; signed-up users with these emails are platform staff once they have verified the address',
      ],
      [
        ['WEBHOOK_ALLOW_PRIVATE_URLS'],
        '`false`',
        '`true` lets webhook URLs be `http://` and private or loopback hosts (development and tests only)',
      ],
      [
        ['METRICS_TOKEN'],
        'unset: `GET /metrics` is open (allowed only on a loopback `HOST`, or with `METRICS_PUBLIC=true`)',
        'when set, `GET /metrics` needs `Authorization: Bearer <METRICS_TOKEN>`',
      ],
      [
        ['METRICS_PUBLIC'],
        '`false`',
        '`true` lets the service start on a `HOST` other machines can reach without `METRICS_TOKEN`, serving `/metrics` to anyone who connects',
      ],
    ],
  },
  {
    title: 'Limits',
    settings: [
      [
        ['RATE_LIMIT_PER_MINUTE'],
        '`600`',
        "requests per minute per key, per dashboard session's account, and per client address without either (an IPv6 client by its /64)",
      ],
      [
        ['RATE_LIMIT_PER_ACCOUNT_MINUTE'],
        '3 × `RATE_LIMIT_PER_MINUTE`',
        "requests per minute over all of an account's keys together, on top of each key's own limit: more keys are not more requests",
      ],
      [
        ['SIGNUP_LIMIT_PER_HOUR'],
        '`10`',
        'sign-ups per client address an hour (API and dashboard together), then 429 `too_many_signups`',
      ],
      [
        ['VERIFY_MAIL_LIMIT_PER_HOUR'],
        '`5`',
        "verification mails per email address an hour, the sign-up's own and every resend, then 429 `too_many_attempts`",
      ],
      [['BROADCAST_MAX_RECIPIENTS'], '`2000`', 'above it a broadcast answers 413'],
    ],
  },
  {
    title: 'Speed and memory',
    settings: [
      [
        ['SOLD_OUT_MEMORY_MS'],
        '`1000`',
        "how long a process remembers an event it found full, refusing later bookings without reading the database (a ticket drop's late requests); it forgets at once when it frees seats itself, other processes may refuse for up to this long after seats come back. `0` keeps no memory: every booking reads the counter (the reconciliation run sets it, so its outcomes never depend on the wall clock)",
      ],
      [
        ['SEAT_STATUS_MEMORY_MS'],
        '`1000`',
        "how long an instance remembers an event's seat statuses (`GET /api/v1/events/{id}/seats/statuses` and the hosted page's `/e/{slug}/seats/statuses`): a crowd of seat maps refreshing together costs one read of the event's taken seats per instance and period, and requests arriving while that read is under way share it. The instance forgets an event at once when it changes the event's seats itself (holds, lets go, books, blocks, moves); another instance's change shows up to this long later. Holds are taken in the database, so an older answer never sells a seat twice. `0` keeps no memory",
      ],
      [
        ['WAITING_ROOM_POW_MAX_NUMBER'],
        '`100000`',
        "the waiting room's proof of work (docs/decisions/26-a-fair-waiting-room.md): the challenge's answer is drawn below it, so a browser computes about half as many SHA-256 hashes (well under a second at the default) before it may join a queue",
      ],
      [
        ['WAITING_ROOM_JOINS_PER_ADDRESS_MINUTE'],
        '`20`',
        'joins of a waiting room a minute from one client address (an IPv6 address by its /64); more answer 429 `too_many_joins`',
      ],
      [
        ['DOOR_ROSTER_CHECK_MS'],
        '`2000`',
        "how often each instance compares its in-memory door rosters' versions with the database's, to find a change whose notification it missed (a roster found behind is read again whole); also proves the LISTEN connection alive",
      ],
      [
        ['DOOR_ROSTER_MAX_PEOPLE'],
        '`500000`',
        "people in one instance's in-memory door rosters, all events together; past it the rosters asked for least recently are dropped (their doors ask the database until their next scan), and an event larger than the bound alone is served from the database",
      ],
    ],
  },
  {
    title: 'Background work',
    settings: [
      [['WORKERS'], '`true`', '`false` runs the HTTP API without the background job workers'],
      [
        ['JOB_BATCH_SIZE'],
        '`50`',
        "how many due jobs a worker claims at once and runs side by side; jobs due at the same instant are claimed in the order they were enqueued. `1` runs one job at a time (the reconciliation run's worker does, so the order of gateway requests never depends on timing)",
      ],
      [
        ['PARTITION_MONTHS_AHEAD'],
        '`3`',
        'months after the current one whose partitions the workers make ahead, for the audit log, webhook deliveries, jobs and door scans ([monthly partitions](../operations/partitions.md)); a row no month covers lands in the DEFAULT partition, never an error',
      ],
      [
        ['AUDIT_RETENTION_MONTHS'],
        '`0`',
        'whole months of the audit log kept before the current one; older months are dropped. `0` keeps every month; otherwise at least `96` (8 years: books of account and the records behind them, Companies Act 2013 s. 128(5)), else start-up stops',
      ],
      [
        ['WEBHOOK_DELIVERY_RETENTION_MONTHS'],
        '`2`',
        'whole months of webhook delivery records kept before the current one (`0`: every month); the records are also pruned by row after 30 days',
      ],
      [
        ['JOB_RETENTION_MONTHS'],
        '`4`',
        'whole months of jobs (by the month they were queued) kept before the current one (`0`: every month); a month that still holds a pending job is kept until it has run',
      ],
      [
        ['DOOR_SCAN_RETENTION_MONTHS'],
        '`24`',
        "whole months of the door's scans (who admitted or undid whom) kept before the current one (`0`: every month)",
      ],
    ],
  },
  {
    title: 'Logs and traces',
    settings: [
      [['LOG_LEVEL'], '`info`', '`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`'],
      [
        ['OTEL_EXPORTER_OTLP_ENDPOINT'],
        'unset: no tracing; no OpenTelemetry SDK, exporter or instrumentation is loaded',
        "an OTLP/HTTP collector's base address (`http://collector:4318`): every request is traced (a span named `METHOD /route/template`, its statements to PostgreSQL and its outgoing calls as child spans) and sent in protobuf to `…/v1/traces`. The service is named `ticketing-service`; the SDK's other `OTEL_*` settings (`OTEL_RESOURCE_ATTRIBUTES`, `OTEL_TRACES_SAMPLER`, `OTEL_BSP_SCHEDULE_DELAY`, …) apply as the SDK documents them",
      ],
    ],
  },
  {
    title: "The ticket's other channels",
    settings: [
      [
        ['APPLE_PASS_TYPE_ID', 'APPLE_TEAM_ID', 'APPLE_PASS_CERT', 'APPLE_PASS_KEY', 'APPLE_WWDR_CERT'],
        'unset: no Apple Wallet link, `/t/{token}/pass.pkpass` answers 404 `wallet_not_configured`',
        "Apple Wallet passes: the Pass Type ID (`pass.in.example.tickets`), the 10-character Team ID, the Pass Type ID certificate, its unencrypted RSA key and Apple's WWDR intermediate (G4). All five or none. Each certificate or key is the PEM text itself (a value starting with `-----BEGIN`; `\\n` written as two characters counts as a line break, for one-line env files) or the path of a file holding it, read once at start. Start-up stops if the key is not the certificate's, or the certificate names another Pass Type ID (`UID`) or team (`OU`)",
      ],
      [
        ['GOOGLE_WALLET_ISSUER_ID', 'GOOGLE_WALLET_SA_EMAIL', 'GOOGLE_WALLET_SA_KEY'],
        'unset: no Google Wallet link',
        "Google Wallet: the issuer id from the Pay & Wallet Console, the service account's email, and its RSA private key as PEM text, a PEM file's path, or the service account's JSON key (text or path; its `private_key` is used). All three or none",
      ],
      [
        ['WHATSAPP_TOKEN', 'WHATSAPP_PHONE_NUMBER_ID', 'WHATSAPP_TEMPLATE'],
        'unset: no WhatsApp message is sent (an opt-in is still stored)',
        "WhatsApp tickets: the system user's token, the sending number's id (not the number) and an approved template with an image header and the named body parameters `{{name}}`, `{{event}}` and `{{date}}`. All three or none",
      ],
      [['WHATSAPP_TEMPLATE_LANGUAGE'], '`en`', 'the language the template is approved in'],
      [
        ['WHATSAPP_CODE_TEMPLATE'],
        'unset: the waiting room sends its one-time codes by mail only',
        "the waiting room's one-time codes by WhatsApp: an approved template (authentication) in `WHATSAPP_TEMPLATE_LANGUAGE` with the named body parameter `{{code}}`. Needs the three above",
      ],
      [
        ['WHATSAPP_API_URL'],
        '`https://graph.facebook.com/v25.0`',
        "the Cloud API's base address, version included (tests point it at a local emulator)",
      ],
      [
        ['WHATSAPP_APP_SECRET'],
        'unset: every status webhook is refused (403 `signature_not_verified`, a warning logged)',
        'checks `X-Hub-Signature-256` of `POST /webhooks/whatsapp`',
      ],
      [
        ['WHATSAPP_VERIFY_TOKEN'],
        'unset: the subscribe handshake is refused (403)',
        "answers Meta's `GET /webhooks/whatsapp` handshake",
      ],
    ],
  },
];
