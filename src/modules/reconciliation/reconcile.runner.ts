// Runs the sweep on start and every RECONCILE_EVERY_SECONDS, alongside the job
// workers. Several instances may run it: the sweep's lease lets one sweep at a time
// and the others' turns pass without work. RECONCILE_EVERY_SECONDS=0: this instance
// never sweeps on its own, not even on start (the sweep runs elsewhere, or on demand
// through POST /admin/api/reconciliation/sweep).
import { sweep, type ReconcileDeps, type SweepSummary } from './reconcile.service.js';

export class ReconcileRunner {
  readonly #deps: ReconcileDeps;
  readonly #everyMs: number;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<unknown> | undefined;
  #stopped = true;

  constructor(deps: ReconcileDeps, everySeconds: number) {
    this.#deps = deps;
    this.#everyMs = everySeconds * 1000;
  }

  start(): void {
    if (!this.#stopped || this.#everyMs === 0) return;
    this.#stopped = false;
    this.#schedule(0);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#running;
  }

  #schedule(ms: number): void {
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#running = sweep(this.#deps)
        .then((s: SweepSummary) => {
          if (s.checked > 0) this.#deps.logger.info({ reconcile: s }, 'reconciliation sweep');
        })
        .catch((err: unknown) => this.#deps.logger.error({ err }, 'reconciliation sweep failed'))
        .then(() => {
          this.#running = undefined;
          if (!this.#stopped) this.#schedule(this.#everyMs);
        });
    }, ms);
    this.#timer.unref();
  }
}
