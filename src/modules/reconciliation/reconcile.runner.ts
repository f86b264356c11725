// Runs the sweep on start and every RECONCILE_EVERY_SECONDS, alongside the job
// workers. Several instances may run it: the sweep's lease lets one sweep at a time
// and the others' turns pass without work. RECONCILE_EVERY_SECONDS=0: this instance
// never sweeps on its own, not even on start (the sweep runs elsewhere, or on demand
// through POST /admin/api/reconciliation/sweep).
import { every, type Loop } from '../../lib/every.js';
import { sweep, type ReconcileDeps } from './reconcile.service.js';

export class ReconcileRunner {
  readonly #deps: ReconcileDeps;
  readonly #everyMs: number;
  #loop: Loop | undefined;

  constructor(deps: ReconcileDeps, everySeconds: number) {
    this.#deps = deps;
    this.#everyMs = everySeconds * 1000;
  }

  start(): void {
    if (this.#loop || this.#everyMs === 0) return;
    const { logger } = this.#deps;
    this.#loop = every(
      this.#everyMs,
      async () => {
        const s = await sweep(this.#deps);
        if (s.checked > 0) logger.info({ reconcile: s }, 'reconciliation sweep');
      },
      { onError: (err) => logger.error({ err }, 'reconciliation sweep failed') },
    );
  }

  async stop(): Promise<void> {
    const loop = this.#loop;
    this.#loop = undefined;
    await loop?.stop();
  }
}
