// Keeps the embedded server running while the service runs: when it exits unexpectedly (it
// crashed, or was killed), it is started again on the same data directory and socket, after
// FIRST_RESTART_MS and then twice as long after each failed attempt, up to LAST_RESTART_MS,
// until one succeeds or the service stops it. A start after a crash recovers from the WAL; it
// fails while processes of the old server still hold its shared memory, and the next attempt
// waits for them. In the meantime requests answer 503 database_unavailable.
import type { ChildProcess } from 'node:child_process';

export const FIRST_RESTART_MS = 200;
export const LAST_RESTART_MS = 5_000;

/** A server that accepts connections: its watchdog child, that child's exit, and the postmaster's pid. */
export interface RunningServer {
  child: ChildProcess;
  exit: Promise<number | null>;
  pid: number;
}

/** A restart that succeeded (`restarts` so far), or failed (`error`, and when the next one is tried). */
export type RestartOutcome = { restarts: number; error?: undefined } | { error: Error; retryInMs: number };

/** Who hears of an unexpected exit and of the restarts after it (the service's log). */
export interface SupervisorHooks {
  /** Called if the server exits while the service still runs; it is then restarted. */
  onUnexpectedExit?: (code: number | null) => void;
  /** Called when a restart after an unexpected exit failed, and when one succeeded. */
  onRestart?: (outcome: RestartOutcome) => void;
}

export interface Supervised {
  readonly pid: number;
  readonly restarts: number;
  /** Fast shutdown of the running server (no restart after it), and wait for its exit. */
  stop(): Promise<void>;
}

export function superviseEmbedded(
  first: RunningServer,
  launch: () => Promise<RunningServer>,
  options: SupervisorHooks,
): Supervised {
  let running = first;
  let restarts = 0;
  let stopping = false;
  let restarting: Promise<void> | undefined;
  let wake: (() => void) | undefined;

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      timer.unref();
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  async function restart(): Promise<void> {
    for (let wait = FIRST_RESTART_MS; ; wait = Math.min(wait * 2, LAST_RESTART_MS)) {
      await pause(wait);
      if (stopping) return;
      try {
        running = await launch();
      } catch (err) {
        options.onRestart?.({ error: err as Error, retryInMs: Math.min(wait * 2, LAST_RESTART_MS) });
        continue;
      }
      restarts++;
      watch(running);
      options.onRestart?.({ restarts });
      return;
    }
  }

  function watch(server: RunningServer): void {
    // The exit as collected since the spawn: one before this call is not missed.
    void server.exit
      .catch(() => null)
      .then((code) => {
        if (stopping) return;
        options.onUnexpectedExit?.(code);
        restarting = restart();
      });
  }
  watch(first);

  return {
    get pid() {
      return running.pid;
    },
    get restarts() {
      return restarts;
    },
    async stop() {
      if (stopping) return;
      stopping = true;
      wake?.();
      await restarting; // a start under way finishes; what it started is stopped below
      const { child, exit } = running;
      if (child.exitCode === null && child.signalCode === null) {
        // Held again while it stops, so the service waits for the shutdown checkpoint.
        child.ref();
        child.stdin?.end(); // the watchdog's cue
        await exit.catch(() => null);
      }
    },
  };
}
