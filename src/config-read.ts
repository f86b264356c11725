// Reading settings from the environment: one value at a time, each refused with one line
// naming its variable (ConfigError) when it is not what the setting takes.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { ConfigError } from './config-error.js';

export type Env = Record<string, string | undefined>;

export function str(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

export function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const v = str(env, name);
  if (v === undefined) return fallback;
  if (!/^\d+$/.test(v)) throw new ConfigError(name, `must be a whole number, got "${v}"`);
  const n = Number(v);
  if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${n}`);
  return n;
}

export function bool(env: Env, name: string, fallback: boolean): boolean {
  const v = str(env, name);
  if (v === undefined) return fallback;
  if (/^(true|1|yes)$/i.test(v)) return true;
  if (/^(false|0|no)$/i.test(v)) return false;
  throw new ConfigError(name, `must be true or false, got "${v}"`);
}

export function url(env: Env, name: string, protocols: readonly string[]): string | undefined {
  const v = str(env, name);
  if (v === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(v);
  } catch {
    throw new ConfigError(name, `must be a URL (${protocols.join(', ')})`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must use ${protocols.join(' or ')}, got ${parsed.protocol}`);
  }
  return v.replace(/\/+$/, '');
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** A secret from the environment, or one generated once and kept in DATA_DIR. */
export function persistentSecret(
  env: Env,
  name: string,
  dataDir: string,
  file: string,
  minLength: number,
): string {
  const v = str(env, name);
  if (v !== undefined) {
    if (v.length < minLength) throw new ConfigError(name, `must be at least ${minLength} characters`);
    return v;
  }
  const path = join(dataDir, file);
  const kept = () => {
    const text = readFileSync(path, 'utf8').trim();
    // An empty or short file (edited by hand, or cut short by a crash) must not become a weak key.
    if (text.length < minLength)
      throw new ConfigError(
        name,
        `kept in ${path} is shorter than ${minLength} characters; delete the file or set ${name}`,
      );
    return text;
  };
  if (existsSync(path)) return kept();
  const generated = randomBytes(32).toString('base64url');
  // wx: two instances starting together on one DATA_DIR keep the first one's secret.
  try {
    writeFileSync(path, generated + '\n', { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST')
      throw new ConfigError('DATA_DIR', `cannot keep ${file}: ${(err as Error).message}`);
    // The first instance may not have written it yet: wait for it, briefly.
    for (let i = 0; i < 50 && readFileSync(path, 'utf8').trim().length < minLength; i++) sleepSync(10);
    return kept();
  }
  return generated;
}

/**
 * TRUST_PROXY: a hop count, or a comma list of proxy addresses/CIDRs. `true` would take
 * any client's X-Forwarded-For as its address (rate limits and logs spoofed at will), so
 * it is refused rather than guessed at.
 */
export function parseTrustProxy(v: string | undefined): false | number | readonly string[] {
  if (v === undefined || /^(false|no|0)$/i.test(v)) return false;
  if (/^(true|yes|all|\*)$/i.test(v)) {
    throw new ConfigError(
      'TRUST_PROXY',
      `must be a number of proxy hops or a comma list of proxy addresses or CIDRs, not "${v}": trusting every X-Forwarded-For lets any client choose its address`,
    );
  }
  if (/^\d+$/.test(v)) {
    const n = Number(v);
    if (n > 100) throw new ConfigError('TRUST_PROXY', `must be between 0 and 100 hops, got ${n}`);
    return n;
  }
  const entries = v
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  for (const e of entries) {
    const [address, bits, ...rest] = e.split('/');
    const family = isIP(address ?? '');
    const maxBits = family === 4 ? 32 : 128;
    const bitsOk = bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= maxBits);
    if (family === 0 || !bitsOk || rest.length > 0) {
      throw new ConfigError(
        'TRUST_PROXY',
        `holds "${e}", which is neither a number of hops nor an IP address or CIDR`,
      );
    }
  }
  if (entries.length === 0)
    throw new ConfigError(
      'TRUST_PROXY',
      'must be a number of proxy hops or a comma list of proxy addresses or CIDRs',
    );
  return Object.freeze(entries);
}
