// main: loadConfig → createDeps → buildApp → listen; graceful close on SIGTERM/SIGINT.
// Only what is needed to start the embedded database is imported up front: the server
// starts (initdb on the first run) while the rest of the service loads.
import { setFlagsFromString } from 'node:v8';
import { ConfigError, loadConfig, type Config } from './config.js';
import { embeddedLogging, startEmbedded, type EmbeddedServer } from './db/embedded.js';
import { listenWithQueues } from './http/accept-queues.js';
import { createLogger } from './lib/logger.js';

/**
 * Under a rush V8 lets the old generation grow to several times what is live before it
 * collects it, mostly garbage that outlived a couple of minor collections. Growing by at most
 * 2× (the flag's 100 %, a setting) keeps resident memory lower; BENCHMARKS.md holds the
 * measured resident memory of the last run. A value given on the command line or in
 * NODE_OPTIONS wins.
 */
function boundHeapGrowth(): void {
  const given = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some(
    (a) => a.includes('heap-growing-percent') || a.includes('heap_growing_percent'),
  );
  if (!given) setFlagsFromString('--heap-growing-percent=100');
}

/** The configuration from the environment; a configuration error is said and ends the process. */
function loadConfigOrExit(): Config {
  try {
    return loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`config error: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}

async function main(): Promise<void> {
  boundHeapGrowth();
  const config = loadConfigOrExit();

  const logger = createLogger(config);
  let embedded: Promise<EmbeddedServer> | undefined;
  if (!config.databaseUrl) {
    embedded = startEmbedded({ dataDir: config.dataDir, ...embeddedLogging(logger) });
    embedded.catch(() => {}); // createDeps awaits it and reports a failure
  }
  // Traces only when asked for: without the setting no OpenTelemetry module is loaded. Started
  // before the service's modules load, so the HTTP and pg instrumentations see them.
  const tracing = config.otelEndpoint
    ? (await import('./modules/ops/tracing.js')).startTracing(config.otelEndpoint)
    : undefined;
  // The service's modules load while the embedded database is created and started.
  const [{ createDeps }, { buildApp }, { countUsers }, { listeningUrl, startMessage }] = await Promise.all([
    import('./deps.js'),
    import('./app.js'),
    import('./modules/accounts/accounts.service.js'),
    import('./modules/ops/start-message.js'),
  ]);
  const deps = await createDeps(config, { logger, ...(embedded ? { embedded } : {}) });
  // The resolver is asked for EMAIL_DNS_CANARY while the routes load; a denial is logged as a
  // warning and said in the start-up message.
  const canary = deps.emailCanary.checkIfDue();
  const app = await buildApp(deps, tracing ? { instrument: (a) => tracing.traceRoutes(a) } : {});
  await canary;
  deps.emailCanary.start();
  const listening = await listenWithQueues(
    app,
    { port: config.port, host: config.host },
    config.http.acceptQueues,
  );
  if (config.workers) {
    deps.jobs.start();
    deps.payoutSweeper.start();
    deps.reconciler.start();
  }

  const { port, queues } = listening;
  deps.logger.info(
    { port, acceptQueues: queues, storage: deps.storage, workers: config.workers },
    'listening',
  );
  if ((await countUsers(deps.db)) === 0) {
    const storage = config.databaseUrl ? 'PostgreSQL' : `embedded database in ${config.dataDir}`;
    process.stdout.write(
      startMessage({
        url: listeningUrl(config.host, port),
        storage,
        emailCheckDetail: deps.emailCanary.status().detail,
      }),
    );
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    deps.logger.info({ signal }, 'shutting down');
    // Stop taking requests, let in-flight ones finish, then stop workers and close storage.
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    try {
      // Keep-alive connections that finish their last request while we close are
      // closed as they turn idle, so the close does not wait on the clients.
      const idle = setInterval(() => app.server.closeIdleConnections(), 100);
      idle.unref();
      await Promise.all([listening.close(), app.close()]);
      clearInterval(idle);
      await deps.close();
      await tracing?.shutdown().catch(() => {});
      process.exit(0);
    } catch (err) {
      deps.logger.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  process.stderr.write(`failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
