// The settings of the ticket's other channels (docs/decisions/16-the-buyers-ticket.md): Apple and Google
// Wallet passes and WhatsApp. loadConfig calls these with its env; each group is all set or
// all absent, and a bad value stops start-up with one line naming the variable.
//
// Certificates and keys (APPLE_PASS_CERT, APPLE_PASS_KEY, APPLE_WWDR_CERT,
// GOOGLE_WALLET_SA_KEY) are either the PEM text itself (a value starting with
// `-----BEGIN`; `\n` written as two characters is read as a line break, for env files that
// hold one line) or the path of a file holding it, read once at start. GOOGLE_WALLET_SA_KEY
// may also be the service account's JSON key (text or file), whose `private_key` is used.
import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ConfigError } from './config-error.js';
import { type Env, str } from './config-read.js';

export interface ApplePassConfig {
  readonly passTypeId: string;
  readonly teamId: string;
  /** PEM texts, normalised: the pass certificate, its RSA key (PKCS#1) and Apple's WWDR intermediate. */
  readonly cert: string;
  readonly key: string;
  readonly wwdr: string;
}

export interface GoogleWalletConfig {
  readonly issuerId: string;
  readonly serviceAccountEmail: string;
  /** The service account's RSA private key, PKCS#8 PEM. */
  readonly privateKey: string;
}

export interface WalletConfig {
  readonly apple: ApplePassConfig | undefined;
  readonly google: GoogleWalletConfig | undefined;
}

export interface WhatsAppConfig {
  /** The Cloud API's base, version included (`https://graph.facebook.com/v25.0`). */
  readonly apiUrl: string;
  /** Sending tickets: undefined unless WHATSAPP_TOKEN, WHATSAPP_PHONE_NUMBER_ID and WHATSAPP_TEMPLATE are set. */
  readonly sender:
    | {
        readonly token: string;
        readonly phoneNumberId: string;
        readonly template: string;
        readonly language: string;
      }
    | undefined;
  /**
   * The approved template (body parameter `{{code}}`, in the sender's language) the waiting room
   * sends its one-time codes with; undefined: codes go by mail only. Needs the sender.
   */
  readonly codeTemplate: string | undefined;
  /** Checks X-Hub-Signature-256 of status webhooks; without it none is accepted. */
  readonly appSecret: string | undefined;
  /** Answers Meta's subscribe handshake; without it none is answered. */
  readonly verifyToken: string | undefined;
}

/** All of `names` or none: the values, or undefined when none is set. */
function group(env: Env, names: readonly string[]): string[] | undefined {
  const values = names.map((n) => str(env, n));
  const missing = names.filter((_, i) => values[i] === undefined);
  if (missing.length === names.length) return undefined;
  if (missing.length > 0)
    throw new ConfigError(
      missing[0]!,
      `must be set together with ${names.filter((n) => !missing.includes(n)).join(', ')}`,
    );
  return values as string[];
}

/** PEM (or JSON) text given inline, or read from the file the value names. */
function textOrFile(name: string, value: string): string {
  if (value.startsWith('-----BEGIN') || value.startsWith('{')) return value.replace(/\\n/g, '\n');
  try {
    return readFileSync(value, 'utf8');
  } catch (err) {
    throw new ConfigError(
      name,
      `is neither PEM text nor a readable file: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
}

function certificate(name: string, value: string): X509Certificate {
  try {
    return new X509Certificate(textOrFile(name, value));
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    throw new ConfigError(name, 'is not a PEM certificate');
  }
}

function rsaKey(name: string, text: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey(text);
  } catch {
    throw new ConfigError(name, 'is not an unencrypted PEM private key');
  }
  if (key.asymmetricKeyType !== 'rsa')
    throw new ConfigError(name, `must be an RSA key, got ${key.asymmetricKeyType}`);
  return key;
}

/** A subject field of a certificate (`UID`, `OU`), if it has one. */
function subjectField(cert: X509Certificate, field: string): string | undefined {
  return cert.subject
    .split('\n')
    .find((l) => l.startsWith(`${field}=`))
    ?.slice(field.length + 1);
}

function loadApple(env: Env): ApplePassConfig | undefined {
  const values = group(env, [
    'APPLE_PASS_TYPE_ID',
    'APPLE_TEAM_ID',
    'APPLE_PASS_CERT',
    'APPLE_PASS_KEY',
    'APPLE_WWDR_CERT',
  ]);
  if (!values) return undefined;
  const [passTypeId, teamId, certValue, keyValue, wwdrValue] = values as [
    string,
    string,
    string,
    string,
    string,
  ];
  if (!/^pass\.[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*$/.test(passTypeId))
    throw new ConfigError('APPLE_PASS_TYPE_ID', 'must be a Pass Type ID such as pass.in.example.tickets');
  if (!/^[A-Z0-9]{10}$/.test(teamId))
    throw new ConfigError('APPLE_TEAM_ID', 'must be the 10-character Team ID');
  const cert = certificate('APPLE_PASS_CERT', certValue);
  const key = rsaKey('APPLE_PASS_KEY', textOrFile('APPLE_PASS_KEY', keyValue));
  if (!cert.checkPrivateKey(key))
    throw new ConfigError('APPLE_PASS_KEY', 'is not the key of APPLE_PASS_CERT');
  // Apple's pass certificates name the Pass Type ID (UID) and the team (OU): Wallet refuses a pass whose pass.json says otherwise.
  const uid = subjectField(cert, 'UID');
  if (uid !== undefined && uid !== passTypeId)
    throw new ConfigError('APPLE_PASS_TYPE_ID', `is not the Pass Type ID of APPLE_PASS_CERT (${uid})`);
  const ou = subjectField(cert, 'OU');
  if (ou !== undefined && ou !== teamId)
    throw new ConfigError('APPLE_TEAM_ID', `is not the team of APPLE_PASS_CERT (${ou})`);
  const wwdr = certificate('APPLE_WWDR_CERT', wwdrValue);
  return Object.freeze({
    passTypeId,
    teamId,
    cert: cert.toString(),
    key: key.export({ type: 'pkcs1', format: 'pem' }).toString(),
    wwdr: wwdr.toString(),
  });
}

function loadGoogle(env: Env): GoogleWalletConfig | undefined {
  const values = group(env, ['GOOGLE_WALLET_ISSUER_ID', 'GOOGLE_WALLET_SA_EMAIL', 'GOOGLE_WALLET_SA_KEY']);
  if (!values) return undefined;
  const [issuerId, serviceAccountEmail, keyValue] = values as [string, string, string];
  if (!/^\d{1,30}$/.test(issuerId))
    throw new ConfigError(
      'GOOGLE_WALLET_ISSUER_ID',
      'must be the issuer id (digits) from the Google Pay & Wallet Console',
    );
  if (!/^[^\s@]+@[^\s@]+$/.test(serviceAccountEmail))
    throw new ConfigError('GOOGLE_WALLET_SA_EMAIL', 'must be the service account’s email address');
  let text = textOrFile('GOOGLE_WALLET_SA_KEY', keyValue);
  if (text.trimStart().startsWith('{')) {
    let json: { private_key?: unknown };
    try {
      json = JSON.parse(text) as { private_key?: unknown };
    } catch {
      throw new ConfigError('GOOGLE_WALLET_SA_KEY', 'holds JSON that does not parse');
    }
    if (typeof json.private_key !== 'string')
      throw new ConfigError('GOOGLE_WALLET_SA_KEY', 'is a JSON key without private_key');
    text = json.private_key;
  }
  const key = rsaKey('GOOGLE_WALLET_SA_KEY', text);
  return Object.freeze({
    issuerId,
    serviceAccountEmail,
    privateKey: key.export({ type: 'pkcs8', format: 'pem' }).toString(),
  });
}

export function loadWallet(env: Env): WalletConfig {
  return Object.freeze({ apple: loadApple(env), google: loadGoogle(env) });
}

export function loadWhatsApp(env: Env, apiUrl: string): WhatsAppConfig {
  const values = group(env, ['WHATSAPP_TOKEN', 'WHATSAPP_PHONE_NUMBER_ID', 'WHATSAPP_TEMPLATE']);
  let sender: WhatsAppConfig['sender'];
  if (values) {
    const [token, phoneNumberId, template] = values as [string, string, string];
    if (!/^\d{1,30}$/.test(phoneNumberId))
      throw new ConfigError(
        'WHATSAPP_PHONE_NUMBER_ID',
        'must be the phone number’s id (digits) from the WhatsApp Manager, not the number',
      );
    if (!/^[a-z0-9_]{1,512}$/.test(template))
      throw new ConfigError(
        'WHATSAPP_TEMPLATE',
        'must be a template name (lower-case letters, digits and _)',
      );
    if (/\s/.test(token)) throw new ConfigError('WHATSAPP_TOKEN', 'must not contain spaces');
    const language = str(env, 'WHATSAPP_TEMPLATE_LANGUAGE') ?? 'en';
    if (!/^[a-z]{2,3}(_[A-Z]{2})?$/.test(language))
      throw new ConfigError(
        'WHATSAPP_TEMPLATE_LANGUAGE',
        'must be a template language code such as en or en_US',
      );
    sender = Object.freeze({ token, phoneNumberId, template, language });
  }
  const codeTemplate = str(env, 'WHATSAPP_CODE_TEMPLATE');
  if (codeTemplate !== undefined && (!sender || !/^[a-z0-9_]{1,512}$/.test(codeTemplate)))
    throw new ConfigError(
      'WHATSAPP_CODE_TEMPLATE',
      'must be a template name (lower-case letters, digits and _), with WHATSAPP_TOKEN, WHATSAPP_PHONE_NUMBER_ID and WHATSAPP_TEMPLATE set',
    );
  return Object.freeze({
    apiUrl,
    sender,
    codeTemplate,
    appSecret: str(env, 'WHATSAPP_APP_SECRET'),
    verifyToken: str(env, 'WHATSAPP_VERIFY_TOKEN'),
  });
}
