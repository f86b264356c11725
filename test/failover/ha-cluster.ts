// A highly available PostgreSQL on loopback for the failover run (docs/operations/high-availability.md):
// one etcd, two PostgreSQL nodes managed by Patroni (synchronous mode: the standby confirms every
// commit before the primary answers it), and HAProxy sending connections to whichever node
// Patroni's REST API says is the primary. Debian's packages (`patroni`, `etcd-server`,
// `haproxy`, `python3-etcd`), installed here when missing and the run is root.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { collect, runAs, spawnAs, sleep } from '../../src/db/embedded-process.js';
import { findToolset, serverDir, serverFile, type Toolset } from '../helpers/pg-cluster.js';
import { freePort } from '../helpers/process.js';

const PACKAGES = ['patroni', 'etcd-server', 'haproxy', 'python3-etcd'];
const PROGRAMS = ['/usr/bin/patroni', '/usr/bin/etcd', '/usr/sbin/haproxy'];

/** Installs Debian's packages when a program is missing (as root); otherwise says what to install. */
export function ensurePackages(log: (line: string) => void): void {
  const haveEtcdClient = () => {
    try {
      execFileSync('/usr/bin/python3', ['-c', 'import etcd'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  };
  if (PROGRAMS.every((p) => existsSync(p)) && haveEtcdClient()) return;
  if (process.getuid?.() !== 0)
    throw new Error(
      `the failover run needs Debian's ${PACKAGES.join(', ')}: apt-get install -y ${PACKAGES.join(' ')}`,
    );
  log(`installing ${PACKAGES.join(', ')} (apt-get)`);
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', ...PACKAGES], {
    stdio: 'ignore',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

interface Running {
  child: ChildProcess;
  log(): string;
  exit: Promise<number | null>;
}

function run(child: ChildProcess): Running {
  const out = collect(child);
  out.exit.catch(() => null);
  return { child, log: out.text, exit: out.exit };
}

export interface PatroniNode {
  name: string;
  port: number;
  restPort: number;
  dataDir: string;
  patroni: Running;
}

export interface HaCluster {
  /** Through HAProxy: always the primary, whichever node it is. */
  url(database?: string): string;
  nodes: PatroniNode[];
  /** The node Patroni's REST API names the primary (undefined while none is). */
  primary(): Promise<PatroniNode | undefined>;
  /** Waits until one node leads and another is its synchronous standby, streaming. */
  settled(ms?: number): Promise<PatroniNode>;
  /** The machine of `node` dies: Patroni and every PostgreSQL process of it SIGKILLed at once. */
  kill(node: PatroniNode): void;
  /** Freezes (SIGSTOP) or thaws (SIGCONT) the WAL receiver of a standby: the planted fault's lag. */
  replication(node: PatroniNode, on: boolean): void;
  /**
   * Kills (SIGKILL) the WAL receiver of a standby, as the link dies with the primary's machine:
   * the WAL its socket had received but it had not read is gone with it, as it would be if the
   * primary's kernel had died too (a killed PostgreSQL's kernel still sends what it had queued).
   */
  cutReplication(node: PatroniNode): void;
  stop(): Promise<void>;
  logs(): string;
}

function patroniYaml(o: {
  scope: string;
  node: string;
  restPort: number;
  port: number;
  dataDir: string;
  etcdPort: number;
  tools: Toolset;
  pgpass: string;
  synchronous: boolean;
}): string {
  return `scope: ${o.scope}
name: ${o.node}
restapi:
  listen: 127.0.0.1:${o.restPort}
  connect_address: 127.0.0.1:${o.restPort}
etcd3:
  hosts: 127.0.0.1:${o.etcdPort}
bootstrap:
  dcs:
    ttl: 10
    loop_wait: 1
    retry_timeout: 4
    maximum_lag_on_failover: ${o.synchronous ? 0 : 1073741824}
    synchronous_mode: ${o.synchronous}
    postgresql:
      use_pg_rewind: false
      parameters:
        synchronous_commit: '${o.synchronous ? 'on' : 'local'}'
        wal_level: replica
        hot_standby: 'on'
        max_connections: 200
        max_wal_senders: 10
        max_replication_slots: 10
        wal_log_hints: 'on'
  initdb:
    - encoding: UTF8
    - locale: C
    - username: postgres
  pg_hba:
    - host replication replicator 127.0.0.1/32 trust
    - host all all 127.0.0.1/32 trust
postgresql:
  listen: 127.0.0.1:${o.port}
  connect_address: 127.0.0.1:${o.port}
  data_dir: ${o.dataDir}
  bin_dir: ${o.tools.bindir}
  pgpass: ${o.pgpass}
  authentication:
    replication:
      username: replicator
      password: replicator
    superuser:
      username: postgres
      password: postgres
  parameters:
    unix_socket_directories: ''
    fsync: 'on'
    full_page_writes: 'on'
`;
}

function haproxyCfg(port: number, nodes: PatroniNode[]): string {
  return `global
  maxconn 2000
defaults
  mode tcp
  timeout connect 2s
  timeout client 30m
  timeout server 30m
  timeout check 1s
listen primary
  bind 127.0.0.1:${port}
  option httpchk OPTIONS /primary
  http-check expect status 200
  default-server inter 500ms fall 2 rise 1 on-marked-down shutdown-sessions
${nodes.map((n) => `  server ${n.name} 127.0.0.1:${n.port} maxconn 400 check port ${n.restPort}`).join('\n')}
`;
}

async function rest(node: PatroniNode, path: string): Promise<{ status: number; body: any }> {
  try {
    const r = await fetch(`http://127.0.0.1:${node.restPort}${path}`, { signal: AbortSignal.timeout(1000) });
    return { status: r.status, body: await r.json().catch(() => undefined) };
  } catch {
    return { status: 0, body: undefined };
  }
}

/**
 * Starts etcd, two Patroni nodes and HAProxy in `dir` (owned by the database's user).
 * `synchronous: false` is the planted fault of `npm run failover:fault`: asynchronous
 * replication, and a standby promoted however far behind it is.
 */
export async function startHaCluster(dir: string, synchronous = true): Promise<HaCluster> {
  const tools = findToolset();
  if (!tools) throw new Error('no PostgreSQL installation (initdb, postgres, pg_basebackup) found');
  const as = runAs();
  serverDir(dir, as);
  const etcdPort = await freePort();
  const etcdPeer = await freePort();
  const etcd = run(
    spawnAs(as, '/usr/bin/etcd', [
      '--name=e1',
      `--data-dir=${serverDir(join(dir, 'etcd'), as)}`,
      `--listen-client-urls=http://127.0.0.1:${etcdPort}`,
      `--advertise-client-urls=http://127.0.0.1:${etcdPort}`,
      `--listen-peer-urls=http://127.0.0.1:${etcdPeer}`,
      `--initial-advertise-peer-urls=http://127.0.0.1:${etcdPeer}`,
      `--initial-cluster=e1=http://127.0.0.1:${etcdPeer}`,
      '--log-level=warn',
    ]),
  );
  const nodes: PatroniNode[] = [];
  const abandon = (err: Error) => {
    for (const p of [etcd, ...nodes.map((n) => n.patroni)]) p.child.kill('SIGKILL');
    for (const n of nodes) killPostgres(n.dataDir);
    return err;
  };
  for (const name of ['node1', 'node2']) {
    const port = await freePort();
    const restPort = await freePort();
    const dataDir = join(dir, name);
    const config = join(dir, `${name}.yml`);
    const pgpass = join(dir, `${name}.pgpass`);
    serverFile(
      config,
      patroniYaml({
        scope: 'svc',
        node: name,
        restPort,
        port,
        dataDir,
        etcdPort,
        tools,
        pgpass,
        synchronous,
      }),
      as,
    );
    // Started one after the other, so node1 bootstraps the cluster and node2 clones it.
    const patroni = run(spawnAs(as, '/usr/bin/patroni', [config]));
    const node = { name, port, restPort, dataDir, patroni };
    nodes.push(node);
    const deadline = Date.now() + 90_000;
    while ((await rest(node, '/health')).status !== 200) {
      if (patroni.child.exitCode !== null)
        throw abandon(new Error(`patroni ${name} exited: ${patroni.log().slice(-2000)}`));
      if (Date.now() > deadline)
        throw abandon(new Error(`patroni ${name} not running: ${patroni.log().slice(-2000)}`));
      await sleep(250);
    }
  }
  const proxyPort = await freePort();
  const cfg = join(dir, 'haproxy.cfg');
  writeFileSync(cfg, haproxyCfg(proxyPort, nodes));
  const haproxy = run(
    spawn('/usr/sbin/haproxy', ['-db', '-f', cfg], { stdio: ['ignore', 'ignore', 'pipe'] }),
  );

  const primary = async () => {
    for (const n of nodes) if ((await rest(n, '/primary')).status === 200) return n;
    return undefined;
  };
  const cluster: HaCluster = {
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${proxyPort}/${database}`,
    nodes,
    primary,
    async settled(ms = 90_000) {
      const deadline = Date.now() + ms;
      for (;;) {
        const lead = await primary();
        if (lead) {
          const { body } = await rest(lead, '/cluster');
          const members = (body?.members ?? []) as { name: string; role: string; state: string }[];
          // Patroni 3.0 says "running" for a streaming standby, later versions "streaming".
          const standbyRole = synchronous ? 'sync_standby' : 'replica';
          const sync = members.some(
            (m) => m.role === standbyRole && (m.state === 'streaming' || m.state === 'running'),
          );
          if (sync && (await writableWithStandby(cluster.url(), synchronous))) return lead;
        }
        if (Date.now() > deadline) throw new Error(`the cluster did not settle: ${cluster.logs()}`);
        await sleep(250);
      }
    },
    kill(node) {
      node.patroni.child.kill('SIGKILL');
      killPostgres(node.dataDir);
    },
    replication(node, on) {
      for (const pid of childrenOf(node.dataDir, 'walreceiver'))
        process.kill(pid, on ? 'SIGCONT' : 'SIGSTOP');
    },
    cutReplication(node) {
      for (const pid of childrenOf(node.dataDir, 'walreceiver')) process.kill(pid, 'SIGKILL');
    },
    async stop() {
      for (const p of [haproxy, ...nodes.map((n) => n.patroni)]) p.child.kill('SIGTERM');
      await Promise.all(nodes.map((n) => Promise.race([n.patroni.exit, sleep(20_000)])));
      for (const n of nodes) cluster.kill(n);
      etcd.child.kill('SIGTERM');
      await Promise.race([etcd.exit, sleep(5_000)]);
    },
    logs: () =>
      nodes.map((n) => `--- ${n.name}\n${n.patroni.log().slice(-3000)}`).join('\n') +
      `\n--- haproxy\n${haproxy.log().slice(-1000)}\n--- etcd\n${etcd.log().slice(-1000)}`,
  };
  return cluster;
}

/** The postmaster of `dataDir` (undefined when it is not running). */
function postmasterOf(dataDir: string): number | undefined {
  const pidFile = join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  return Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
}

/** The postmaster's children, those whose command line matches `matching` when given. */
function childrenOf(dataDir: string, matching?: string): number[] {
  const postmaster = postmasterOf(dataDir);
  if (postmaster === undefined) return [];
  try {
    return execFileSync('pgrep', ['-P', String(postmaster), ...(matching ? ['-f', matching] : [])], {
      encoding: 'utf8',
    })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return []; // none
  }
}

/** SIGKILLs the postmaster of `dataDir` and its children at once. */
function killPostgres(dataDir: string): void {
  const postmaster = postmasterOf(dataDir);
  if (postmaster === undefined) return;
  for (const pid of [postmaster, ...childrenOf(dataDir)]) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** HAProxy reaches a primary that takes writes, and a standby streams from it (synchronously, when asked). */
async function writableWithStandby(url: string, synchronous: boolean): Promise<boolean> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  try {
    await c.connect();
    const r = await c.query<{ ro: string; sync: string }>(
      `select current_setting('transaction_read_only') as ro,
         (select count(*) from pg_stat_replication where ($1 or sync_state = 'sync') and state = 'streaming') as sync`,
      [!synchronous],
    );
    return r.rows[0]?.ro === 'off' && Number(r.rows[0]?.sync) > 0;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => {});
  }
}
