// A small fetch wrapper and account factories that go through the HTTP API.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { markEmailVerified } from '../../src/modules/accounts/accounts.repo.js';
import { serverAt } from './server.js';

export interface Reply<T = any> {
  status: number;
  body: T;
  headers: Headers;
  text: string;
}

export interface CallOptions {
  key?: string;
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Send this exact string as the body. */
  raw?: string;
}

export async function call<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Reply<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) headers['x-api-key'] = options.key;
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.raw !== undefined) body = options.raw;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(baseUrl + path, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = text;
  }
  return { status: res.status, body: parsed as T, headers: res.headers, text };
}

export function uniqueEmail(tag = 'user'): string {
  return `${tag}-${randomUUID().slice(0, 12)}@example.in`;
}

export interface Account {
  userId: string;
  email: string;
  token: string;
}

/**
 * Signs up over HTTP. The address counts as verified (as if the verification mail had
 * been opened) unless `verified: false`, when the server runs in this process; a
 * server in another process leaves it unverified.
 */
export async function signup(
  baseUrl: string,
  overrides: { email?: string; name?: string; verified?: boolean } = {},
): Promise<Account> {
  const email = overrides.email ?? uniqueEmail();
  const r = await call(baseUrl, 'POST', '/auth/signup', {
    body: { email, password: 'correct horse battery', name: overrides.name ?? 'Test Organiser' },
  });
  if (r.status !== 201) throw new Error(`signup failed: ${r.status} ${r.text}`);
  const server = overrides.verified === false ? undefined : serverAt(baseUrl);
  if (server)
    await markEmailVerified(server.deps.db, r.body.userId, email.trim().toLowerCase(), server.clock.now());
  return { userId: r.body.userId, email, token: r.body.idToken };
}

export interface KeyInfo {
  key: string;
  keyId: string;
}

export async function createKey(
  baseUrl: string,
  token: string,
  spec: { mode?: 'test' | 'live'; class?: 'full' | 'checkout'; allowedOrigin?: string } = {},
): Promise<KeyInfo> {
  const r = await call(baseUrl, 'POST', '/dashboard/api/keys', {
    token,
    body: {
      mode: spec.mode ?? 'test',
      class: spec.class ?? 'full',
      ...(spec.allowedOrigin ? { allowedOrigin: spec.allowedOrigin } : {}),
    },
  });
  if (r.status !== 201) throw new Error(`key creation failed: ${r.status} ${r.text}`);
  return { key: r.body.key, keyId: r.body.data.id };
}

/** An account with a full key in the given mode. */
export async function organiser(baseUrl: string, mode: 'test' | 'live' = 'test'): Promise<Account & KeyInfo> {
  const account = await signup(baseUrl);
  return { ...account, ...(await createKey(baseUrl, account.token, { mode })) };
}

/**
 * Verifies an account the way its owner does, for a service running in another process:
 * finds the verification mail among the .eml files the service wrote under its DATA_DIR
 * (any of `dataDirs`, since any instance's worker may send it) and confirms its token
 * signed in to the account (the default test password).
 */
export async function verifyFromMailFiles(
  baseUrl: string,
  dataDirs: readonly string[],
  email: string,
  tries = 200,
): Promise<void> {
  for (let i = 0; i < tries; i++) {
    for (const dir of dataDirs) {
      const mailDir = join(dir, 'mail');
      if (!existsSync(mailDir)) continue;
      for (const name of readdirSync(mailDir).filter((n) => n.endsWith('.eml'))) {
        // Quoted-printable soft line breaks and "=" escapes undone, enough to read the link.
        const text = readFileSync(join(mailDir, name), 'utf8')
          .replace(/=\r?\n/g, '')
          .replace(/=3D/gi, '=');
        if (!text.toLowerCase().includes(email.toLowerCase())) continue;
        const token = /\/auth\/verify\?token=([A-Za-z0-9_-]+)/.exec(text)?.[1];
        if (!token) continue;
        // Confirming needs the account's own session (docs/decisions/14-trust-and-safety-second-round.md).
        const login = await call(baseUrl, 'POST', '/auth/login', {
          body: { email, password: 'correct horse battery' },
        });
        const r = await call(baseUrl, 'POST', '/auth/verify', { token: login.body.idToken, body: { token } });
        if (r.status !== 200) throw new Error(`verification failed: ${r.status} ${r.text}`);
        return;
      }
    }
    // The mail is sent by a background worker of the other process.
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no verification mail for ${email} under ${dataDirs.join(', ')}`);
}
