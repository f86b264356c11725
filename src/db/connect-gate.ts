// The pool's back-off after a failed connect. pg-pool opens a new connection for a checkout
// when none is idle; while the database is away every such checkout would try, and fail, at
// once and again on every request. Instead, after a connect fails, checkouts that need a new
// connection fail at once (answered 503 with Retry-After) until the back-off has passed; the
// first connect after that tries the database again. The back-off doubles while connects keep
// failing (FIRST_BACKOFF_MS up to LAST_BACKOFF_MS) and starts over after one succeeds.

export const FIRST_BACKOFF_MS = 100;
export const LAST_BACKOFF_MS = 2_000;

/** SQLSTATE 08001 (sqlclient_unable_to_establish_sqlconnection): a connect refused here, in back-off. */
export const BACKED_OFF_CODE = '08001';

export class ConnectGate {
  #closedUntil = 0;
  #backoff = FIRST_BACKOFF_MS;
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** Whether a new connection may be tried now. */
  get open(): boolean {
    return this.#now() >= this.#closedUntil;
  }

  /**
   * A connect failed. Connects that were started together and fail together close the gate once:
   * only a failure while it is open lengthens the back-off.
   */
  failed(): void {
    if (!this.open) return;
    this.#closedUntil = this.#now() + this.#backoff;
    this.#backoff = Math.min(this.#backoff * 2, LAST_BACKOFF_MS);
  }

  succeeded(): void {
    this.#closedUntil = 0;
    this.#backoff = FIRST_BACKOFF_MS;
  }

  /** The error a checkout gets while the gate is closed. */
  refusal(): Error {
    const wait = Math.max(0, this.#closedUntil - this.#now());
    return Object.assign(
      new Error(`the database could not be reached moments ago; the next connect is tried in ${wait} ms`),
      { code: BACKED_OFF_CODE },
    );
  }
}
