// The one timer loop for periodic work (the job workers' poll, the reconciliation sweep, the payout
// sweep). A run never overlaps the one before: the next is scheduled when a run ends, `ms` later
// (or what `next` says from the run's result). A run that throws is handed to `onError` and the
// loop goes on. `stop()` cancels the wait and resolves once a run in progress has ended. Timers
// are injected so tests drive the loop without waiting; the real ones do not keep the process up.

/** The two timer calls a loop needs (Node's, unref'd, unless a test passes its own). */
export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const nodeTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface EveryOptions<R> {
  /** A run that threw (or rejected); the loop carries on. */
  onError: (err: unknown) => void;
  /** How long before the first run (default 0: at once). */
  firstAfterMs?: number;
  /** The wait after a run, from its result (undefined when it threw); default `ms`. */
  next?: (result: R | undefined) => number;
  timers?: Timers;
}

export interface Loop {
  /** Runs soon (on the next turn) unless a run is in progress; the wait in hand is dropped. */
  kick(): void;
  /** No more runs; resolves once a run in progress has ended. */
  stop(): Promise<void>;
}

export function every<R>(ms: number, fn: () => Promise<R>, options: EveryOptions<R>): Loop {
  const timers = options.timers ?? nodeTimers;
  let handle: unknown;
  let running: Promise<void> | undefined;
  let stopped = false;

  const run = async () => {
    let result: R | undefined;
    try {
      result = await fn();
    } catch (err) {
      options.onError(err);
    }
    running = undefined;
    if (!stopped) schedule(options.next ? options.next(result) : ms);
  };
  const schedule = (wait: number) => {
    if (handle !== undefined) timers.clearTimeout(handle);
    handle = timers.setTimeout(() => {
      handle = undefined;
      running = run();
    }, wait);
  };

  schedule(options.firstAfterMs ?? 0);
  return {
    kick() {
      if (!stopped && running === undefined) schedule(0);
    },
    async stop() {
      stopped = true;
      if (handle !== undefined) timers.clearTimeout(handle);
      handle = undefined;
      await running;
    },
  };
}
