// Stand-ins for the wallets' credentials, made per test run (docs/guides/tickets-wallet-and-whatsapp.md):
// a root CA, a WWDR-like intermediate it signs, and a Pass Type ID certificate the
// intermediate signs (UID = the Pass Type ID, OU = the team), made with openssl; and a Google
// service account's RSA key in its JSON key file, made with node:crypto. A real iPhone
// rejects this chain; the signature and the JWT are checked against it here. Also: reading
// a .pkpass (a zip) and verifying its signature with `openssl cms -verify`.
import { execFileSync, spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';

export const PASS_TYPE_ID = 'pass.in.example.tickets';
export const TEAM_ID = 'ABCDE12345';
export const ISSUER_ID = '3388000000022222222';
export const SA_EMAIL = 'wallet@tickets-test.iam.gserviceaccount.com';

export interface WalletKeys {
  dir: string;
  /** The root the chain ends in (verify against it). */
  rootPem: string;
  wwdrPem: string;
  passCertPem: string;
  passKeyPem: string;
  googlePublicPem: string;
  /** The settings, in the forms config-channels.ts takes: a file path, inline PEM, PEM with `\n` written out, a JSON key file. */
  env: Record<string, string>;
  close(): void;
}

const openssl = (dir: string, ...args: string[]) =>
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });

/** A key and a certificate for `subject`, signed by `ca` (or self-signed), with the extensions given. */
function issue(dir: string, name: string, subject: string, extensions: string, ca?: string): void {
  writeFileSync(join(dir, `${name}.ext`), extensions);
  if (!ca) {
    openssl(
      dir,
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.pem`,
      '-days',
      '3650',
      '-subj',
      subject,
      '-extensions',
      'v3',
      '-config',
      `${name}.ext`,
    );
    return;
  }
  openssl(
    dir,
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.csr`,
    '-subj',
    subject,
  );
  openssl(
    dir,
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    `${ca}.pem`,
    '-CAkey',
    `${ca}.key`,
    '-CAcreateserial',
    '-days',
    '365',
    '-out',
    `${name}.pem`,
    '-extfile',
    `${name}.ext`,
    '-extensions',
    'v3',
  );
}

const CA_EXT =
  '[req]\ndistinguished_name=dn\n[dn]\n[v3]\nbasicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\nsubjectKeyIdentifier=hash\n';
const LEAF_EXT =
  '[v3]\nbasicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nsubjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid\n';

export function makeWalletKeys(): WalletKeys {
  const dir = mkdtempSync(join(tmpdir(), 'wallet-keys-'));
  issue(dir, 'root', '/CN=Test Apple Root CA/O=Test', CA_EXT);
  issue(
    dir,
    'wwdr',
    '/CN=Test Worldwide Developer Relations G4/OU=G4/O=Test',
    CA_EXT.replace('[req]\ndistinguished_name=dn\n[dn]\n', '') + 'authorityKeyIdentifier=keyid\n',
    'root',
  );
  issue(
    dir,
    'pass',
    `/UID=${PASS_TYPE_ID}/CN=Pass Type ID: ${PASS_TYPE_ID}/OU=${TEAM_ID}/O=Test`,
    LEAF_EXT,
    'wwdr',
  );
  const read = (f: string) => readFileSync(join(dir, f), 'utf8');
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const saFile = join(dir, 'service-account.json');
  writeFileSync(
    saFile,
    JSON.stringify({
      type: 'service_account',
      project_id: 'tickets-test',
      private_key_id: 'k1',
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }),
      client_email: SA_EMAIL,
    }),
  );
  const keys: WalletKeys = {
    dir,
    rootPem: read('root.pem'),
    wwdrPem: read('wwdr.pem'),
    passCertPem: read('pass.pem'),
    passKeyPem: read('pass.key'),
    googlePublicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    env: {},
    close: () => rmSync(dir, { recursive: true, force: true }),
  };
  keys.env = {
    APPLE_PASS_TYPE_ID: PASS_TYPE_ID,
    APPLE_TEAM_ID: TEAM_ID,
    APPLE_PASS_CERT: join(dir, 'pass.pem'),
    APPLE_PASS_KEY: keys.passKeyPem,
    APPLE_WWDR_CERT: keys.wwdrPem.replace(/\n/g, '\\n'),
    GOOGLE_WALLET_ISSUER_ID: ISSUER_ID,
    GOOGLE_WALLET_SA_EMAIL: SA_EMAIL,
    GOOGLE_WALLET_SA_KEY: saFile,
  };
  return keys;
}

/** The files of a zip archive (stored or deflated entries), read from its central directory. */
export function unzip(zip: Buffer): Map<string, Buffer> {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error('not a zip');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const files = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error('bad central directory');
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const skip = zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const dataAt = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(dataAt, dataAt + size);
    files.set(name, method === 8 ? inflateRawSync(data) : Buffer.from(data));
    at += 46 + nameLength + skip;
  }
  return files;
}

/** `openssl cms -verify` of a detached DER signature over `content`, chained to `rootPem`: true when it holds. */
export function cmsVerifies(signature: Buffer, content: Buffer, rootPem: string): boolean {
  const dir = mkdtempSync(join(tmpdir(), 'cms-'));
  try {
    writeFileSync(join(dir, 'signature'), signature);
    writeFileSync(join(dir, 'content'), content);
    writeFileSync(join(dir, 'root.pem'), rootPem);
    const r = spawnSync(
      'openssl',
      [
        'cms',
        '-verify',
        '-binary',
        '-inform',
        'DER',
        '-in',
        'signature',
        '-content',
        'content',
        '-CAfile',
        'root.pem',
        '-purpose',
        'any',
        '-out',
        '/dev/null',
      ],
      { cwd: dir },
    );
    return r.status === 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The certificates inside a DER PKCS#7 signature, as openssl prints their subjects. */
export function signatureSubjects(signature: Buffer): string[] {
  const out = execFileSync('openssl', ['pkcs7', '-inform', 'DER', '-print_certs', '-noout'], {
    input: signature,
  }).toString();
  return out
    .split('\n')
    .filter((l) => l.startsWith('subject='))
    .map((l) => l.slice(8).trim());
}
