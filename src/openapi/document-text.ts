// The OpenAPI document's introduction: what every operation shares.
export const OPENAPI_DESCRIPTION = `Event ticketing and memberships for organisers in India.

Every failure answers JSON \`{ error, code }\`: \`error\` is a sentence, \`code\` a stable snake_case word.
Bodies are JSON (\`Content-Type: application/json\`) and their text must be Unicode: a string or key with an
unpaired UTF-16 surrogate escape (\`"\\ud800"\` without its pair) answers 400 \`invalid_json\`, like malformed JSON.
So does a body nested more than 64 arrays or objects deep (refused by a scan before it is parsed). A body may be
at most 1 MiB, and at most 64 KiB on operations that take no credentials (\`x-auth\` kind \`public\`); larger answers 413.
A request must arrive whole within 30 s (\`REQUEST_TIMEOUT_MS\`) and its headers within 10 s, else 408 \`request_timeout\`
and the connection closes; idle keep-alive connections close after 72 s.
Amounts are rupees at the API edge unless a field says paise. Keys: \`sk_test_…\`/\`sk_live_…\` (full) and
\`pk_test_…\`/\`pk_live_…\` (checkout). A key sees only its own account and mode: another mode's object
answers 404, another account's 403.

Rate limits: \`RATE_LIMIT_PER_MINUTE\` requests per key (per IP without a key) in fixed one-minute windows;
every answer carries \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\`, and a 429 adds \`Retry-After\`.

Browser use: a checkout key pinned to an origin gets CORS headers for that origin (preflight included);
a request from any other \`Origin\` answers 403. A request without an \`Origin\` header (a server) is accepted.
Full keys never get CORS headers.

The browser side (tag \`checkout\`): \`GET /embed.js\` for host pages and the hosted page \`GET /e/{slug}\` (HTML),
whose own JSON calls live under \`/e/{slug}/…\`: no credentials for a published live event, the test checkout key
(\`data-svc-key\`) for a test event. Only \`/e/*\` and \`/embed/*\` may be framed (\`frame-ancestors *\`); every other
answer says \`frame-ancestors 'none'\`. No route sets a cookie.

Who may call each operation is stated in its \`x-auth\` extension, the rule the service enforces:
\`{ kind: "public" }\` (no credentials), \`{ kind: "key", classes, modes? }\` (an \`x-api-key\` of those classes and modes),
\`{ kind: "session" }\` (a dashboard session token), \`{ kind: "staff" }\` (the session of platform staff with a verified email) or
\`{ kind: "door", keys? }\` (a door pass, \`Authorization: DoorPass <token>\`, for the one event it was made for; with \`keys: true\` a full key too).
Every route declares its rule and routes fail closed: the service refuses to start with a route that declares none, and
were one ever served it would answer 403 \`route_not_open\` to every caller.

A session works in one organisation (an account with members, each in a role: \`owner\`, \`admin\`, \`finance\`,
\`event_manager\`, \`door\`, \`viewer\`). A session operation's \`x-permission\` names the permission the member's role must
hold there and what it acts on (\`scope\`: \`event\`, the organisation as \`account\`, or the events list); otherwise 403
\`role_forbidden\`. A session operation without one is refused to every role.

Email verification: sign-up mails a link; until it is opened the account has \`emailVerified: false\`, gets no live key
(403 \`email_unverified\`), no payout, and \`STAFF_EMAILS\` grants it nothing. Test keys work at once.`;
