// The limits the test servers raise, in one place. The project's own tests sign up many
// accounts, send many requests and create many keys from one loopback address and one
// account; the limits meant for a real client would refuse them. Each limit is tested on its
// own with its default (DEFAULT_LIMITS puts them back), in test/ratelimit/ and beside its feature.
export const RAISED_LIMITS: Readonly<Record<string, string>> = Object.freeze({
  RATE_LIMIT_PER_MINUTE: '1000000',
  SIGNUP_LIMIT_PER_HOUR: '1000000',
  VERIFY_MAIL_LIMIT_PER_HOUR: '1000000',
  WAITING_ROOM_JOINS_PER_ADDRESS_MINUTE: '1000000',
});

/** Env for startServer that leaves every raised limit at the service's default (an empty value is unset). */
export const DEFAULT_LIMITS: Readonly<Record<string, string>> = Object.freeze(
  Object.fromEntries(Object.keys(RAISED_LIMITS).map((k) => [k, ''])),
);
