// Load-driving helpers for the benchmarks: a bounded number of requests from a
// fixed number of concurrent callers, on loopback only, with latency percentiles.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Pool } from 'undici';
import { startProcess, type ServiceProcess } from '../test/helpers/process.js';

export interface LoadResult {
  name: string;
  requests: number;
  errors: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
}

export async function load(name: string, concurrency: number, total: number, one: (i: number) => Promise<boolean>): Promise<LoadResult> {
  const latencies: number[] = [];
  let next = 0;
  let errors = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < total; i = next++) {
        const t = performance.now();
        let ok = false;
        try {
          ok = await one(i);
        } catch {
          ok = false;
        }
        latencies.push(performance.now() - t);
        if (!ok) errors++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
  return { name, requests: total, errors, seconds, rps: total / seconds, p50: pct(50), p99: pct(99) };
}

export function show(r: LoadResult): string {
  return `${r.name.padEnd(44)} ${r.rps.toFixed(0).padStart(7)} req/s   p50 ${r.p50.toFixed(1).padStart(6)} ms   p99 ${r.p99.toFixed(1).padStart(6)} ms   errors ${r.errors}`;
}

export function httpPool(url: string, connections: number): Pool {
  return new Pool(url, { connections, pipelining: 1, keepAliveTimeout: 30_000 });
}

export async function request(pool: Pool, method: 'GET' | 'POST', path: string, headers: Record<string, string>, body?: unknown) {
  const r = await pool.request({
    method,
    path,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.body.text();
  return { status: r.statusCode, text };
}

/** A fresh PostgreSQL database for one benchmark run. */
export async function freshDatabase(tag: string): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = process.env.BENCH_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `bench_${tag}_${Date.now()}`;
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  await c.query(`create database "${name}"`);
  await c.end();
  const u = new URL(admin);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      const d = new pg.Client({ connectionString: admin });
      await d.connect();
      await d.query(`drop database if exists "${name}" with (force)`);
      await d.end();
    },
  };
}

export async function startService(databaseUrl: string, extra: Record<string, string> = {}, nodeArgs: string[] = []): Promise<ServiceProcess> {
  return startProcess({
    DATABASE_URL: databaseUrl,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'bench-')),
    SESSION_SECRET: 'bench-session-secret-0123456789abcdefghij',
    SECRETS_KEY: 'bench-secrets-key-0123456789abcdefghijklmn',
    RATE_LIMIT_PER_MINUTE: '1000000',
    EMAIL_DNS_CHECK: 'false',
    LOG_LEVEL: 'warn',
    ...extra,
  }, 30_000, nodeArgs);
}

export async function account(url: string): Promise<{ key: string; token: string; userId: string }> {
  const email = `bench-${Date.now()}-${Math.random().toString(36).slice(2)}@example.in`;
  const s = await fetch(`${url}/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'bench password 123', name: 'Bench' }),
  }).then((r) => r.json() as Promise<{ idToken: string; userId: string }>);
  const k = await fetch(`${url}/dashboard/api/keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${s.idToken}` },
    body: JSON.stringify({ mode: 'test', class: 'full' }),
  }).then((r) => r.json() as Promise<{ key: string }>);
  return { key: k.key, token: s.idToken, userId: s.userId };
}
