// The wallet and WhatsApp settings (config-channels.ts): each group all set or all absent;
// certificates and keys as PEM text (with `\n` written out too) or a file path; a bad value
// stops start-up with one line naming the variable.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';
import { makeWalletKeys, type WalletKeys } from '../helpers/wallet-keys.js';

describe('wallet and WhatsApp settings', () => {
  let keys: WalletKeys;
  let other: WalletKeys;
  let dataDir: string;
  const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: dataDir, ...env });
  const refuses = (env: Record<string, string>, variable: string, why?: RegExp) =>
    assert.throws(
      () => load(env),
      (err: unknown) =>
        err instanceof ConfigError &&
        new RegExp(`^${variable} `).test(err.message) &&
        !err.message.includes('\n') &&
        (why === undefined || why.test(err.message)),
      `${variable} ${JSON.stringify(Object.keys(env))}`,
    );

  before(() => {
    keys = makeWalletKeys();
    other = makeWalletKeys();
    dataDir = mkdtempSync(join(tmpdir(), 'channels-config-'));
  });
  after(() => {
    keys.close();
    other.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('absent settings: no wallet, no WhatsApp sender, the real Graph API address', () => {
    const c = load({});
    assert.deepEqual(c.wallet, { apple: undefined, google: undefined });
    assert.deepEqual(c.whatsapp, {
      apiUrl: 'https://graph.facebook.com/v25.0',
      sender: undefined,
      codeTemplate: undefined,
      appSecret: undefined,
      verifyToken: undefined,
    });
  });

  it('reads certificates and keys from files, inline PEM and PEM with \\n written out, and a service account’s JSON key', () => {
    const c = load(keys.env);
    assert.equal(c.wallet.apple!.passTypeId, 'pass.in.example.tickets');
    assert.match(c.wallet.apple!.cert, /^-----BEGIN CERTIFICATE-----\n/);
    assert.match(c.wallet.apple!.wwdr, /^-----BEGIN CERTIFICATE-----\n/);
    assert.match(c.wallet.apple!.key, /^-----BEGIN RSA PRIVATE KEY-----\n/);
    assert.match(c.wallet.google!.privateKey, /^-----BEGIN PRIVATE KEY-----\n/);
    const inline = load({
      ...keys.env,
      APPLE_PASS_CERT: keys.passCertPem,
      APPLE_PASS_KEY: join(keys.dir, 'pass.key'),
    });
    assert.equal(inline.wallet.apple!.cert, c.wallet.apple!.cert);
  });

  it('refuses a half-set group, naming the missing variable', () => {
    const { APPLE_WWDR_CERT: _w, ...noWwdr } = keys.env;
    refuses(noWwdr, 'APPLE_WWDR_CERT', /set together/);
    refuses({ GOOGLE_WALLET_ISSUER_ID: '123' }, 'GOOGLE_WALLET_SA_EMAIL');
    refuses({ WHATSAPP_TOKEN: 't', WHATSAPP_TEMPLATE: 'ticket' }, 'WHATSAPP_PHONE_NUMBER_ID');
  });

  it('refuses certificates and keys that do not fit', () => {
    refuses(
      { ...keys.env, APPLE_PASS_KEY: other.passKeyPem },
      'APPLE_PASS_KEY',
      /not the key of APPLE_PASS_CERT/,
    );
    refuses(
      { ...keys.env, APPLE_PASS_TYPE_ID: 'pass.in.example.other' },
      'APPLE_PASS_TYPE_ID',
      /not the Pass Type ID/,
    );
    refuses({ ...keys.env, APPLE_TEAM_ID: 'ZZZZZ99999' }, 'APPLE_TEAM_ID', /not the team/);
    refuses({ ...keys.env, APPLE_TEAM_ID: 'short' }, 'APPLE_TEAM_ID');
    refuses(
      { ...keys.env, APPLE_PASS_CERT: join(keys.dir, 'missing.pem') },
      'APPLE_PASS_CERT',
      /readable file/,
    );
    refuses(
      { ...keys.env, APPLE_WWDR_CERT: '-----BEGIN CERTIFICATE-----\nnonsense\n-----END CERTIFICATE-----' },
      'APPLE_WWDR_CERT',
    );
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    refuses({ ...keys.env, GOOGLE_WALLET_SA_KEY: ec }, 'GOOGLE_WALLET_SA_KEY', /RSA/);
    const noKey = join(dataDir, 'sa.json');
    writeFileSync(noKey, JSON.stringify({ client_email: 'x@y' }));
    refuses({ ...keys.env, GOOGLE_WALLET_SA_KEY: noKey }, 'GOOGLE_WALLET_SA_KEY', /private_key/);
    refuses({ ...keys.env, GOOGLE_WALLET_ISSUER_ID: 'abc' }, 'GOOGLE_WALLET_ISSUER_ID');
  });

  it('reads the WhatsApp sender, its template language and the webhook secrets', () => {
    const c = load({
      WHATSAPP_TOKEN: 'EAAG',
      WHATSAPP_PHONE_NUMBER_ID: '106540352242922',
      WHATSAPP_TEMPLATE: 'ticket_confirmed',
      WHATSAPP_APP_SECRET: 's',
      WHATSAPP_VERIFY_TOKEN: 'v',
      WHATSAPP_API_URL: 'http://127.0.0.1:9/v25.0/',
      WHATSAPP_CODE_TEMPLATE: 'queue_code',
    });
    assert.deepEqual(c.whatsapp, {
      apiUrl: 'http://127.0.0.1:9/v25.0',
      sender: {
        token: 'EAAG',
        phoneNumberId: '106540352242922',
        template: 'ticket_confirmed',
        language: 'en',
      },
      codeTemplate: 'queue_code',
      appSecret: 's',
      verifyToken: 'v',
    });
    const sender = { WHATSAPP_TOKEN: 'EAAG', WHATSAPP_PHONE_NUMBER_ID: '1', WHATSAPP_TEMPLATE: 'ticket' };
    refuses(
      { ...sender, WHATSAPP_PHONE_NUMBER_ID: '+919812345678' },
      'WHATSAPP_PHONE_NUMBER_ID',
      /not the number/,
    );
    refuses({ ...sender, WHATSAPP_TEMPLATE: 'Ticket Confirmed' }, 'WHATSAPP_TEMPLATE');
    refuses({ ...sender, WHATSAPP_TEMPLATE_LANGUAGE: 'english' }, 'WHATSAPP_TEMPLATE_LANGUAGE');
    refuses({ WHATSAPP_API_URL: 'ftp://x' }, 'WHATSAPP_API_URL');
    // The waiting room's code template needs the sender, and a template's name.
    refuses({ WHATSAPP_CODE_TEMPLATE: 'queue_code' }, 'WHATSAPP_CODE_TEMPLATE');
    refuses({ ...sender, WHATSAPP_CODE_TEMPLATE: 'Queue Code' }, 'WHATSAPP_CODE_TEMPLATE');
  });
});
