// A local emulator of the WhatsApp Cloud API on loopback (docs/guides/tickets-wallet-and-whatsapp.md,
// which links Meta's reference): `POST /{version}/{phone-number-id}/media` (multipart; PNG or JPEG
// of at most 5 MB whose bytes match its type, else 131053) and `/messages` (templates only).
// It refuses as Meta does, with Meta's error shape: a missing or wrong Bearer token 401 code
// 190; an unknown phone number id or a malformed `to` 400 code 100; a template unknown in
// that language 132001; the wrong number of parameters 132000; a parameter of the wrong kind,
// name or text (a line break, a tab) 132012; a header image with both or neither of `link`
// and `id`, or an unknown or expired media id, 131053. The test scripts synchronous refusals
// per recipient (130429, 131056, 190, …) and sends the status webhooks (sent, delivered,
// read, failed) signed with the app secret over the exact bytes, non-ASCII escaped as
// \uXXXX and timestamps as strings, as Meta does; duplicates, out-of-order ones and
// redelivery of a refused POST are the test's to ask for.
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

type Json = Record<string, unknown>;

export interface TemplateSpec {
  name: string;
  language: string;
  /** The header's kind (`image`), or none. */
  header: 'image' | 'none';
  /** The body's named parameters, in order. */
  body: readonly string[];
}

export interface SentMessage {
  wamid: string;
  to: string;
  template: string;
  language: string;
  /** The header image's media id (or link). */
  image: { id?: string; link?: string };
  /** Body parameters by name. */
  params: Record<string, string>;
  opaque: string | undefined;
}

export interface EmulatorCall {
  path: string;
  status: number;
  /** Meta's error code of a refusal. */
  code?: number;
}

export type StatusName = 'sent' | 'delivered' | 'read' | 'failed';

export interface WhatsAppEmulator {
  /** The API base, version included: WHATSAPP_API_URL. */
  url: string;
  calls: EmulatorCall[];
  messages: SentMessage[];
  media: Map<string, { type: string; bytes: Buffer; at: number }>;
  /** The next `times` sends to this recipient (E.164) are refused with Meta's `code`. */
  refuse(to: string, code: number, times?: number, status?: number): void;
  /** Makes a media id older than 30 days. */
  expireMedia(id: string): void;
  /** A status webhook body as Meta sends it (non-ASCII escaped). */
  statusBody(
    items: readonly {
      wamid: string;
      status: StatusName;
      at?: number;
      errorCode?: number;
      recipient?: string;
      opaque?: string;
    }[],
  ): string;
  /** POSTs a body to the webhook URL, signed with the app secret (or `signature` as given); redelivers a non-2xx up to `attempts` times. */
  deliver(
    body: string,
    options?: { signature?: string | null; attempts?: number },
  ): Promise<{ status: number; body: any }[]>;
  /** Sends the statuses of an accepted message, one webhook each, in the order given. */
  sendStatuses(
    wamid: string,
    statuses: readonly StatusName[],
    options?: { errorCode?: number; at?: number },
  ): Promise<number[]>;
  /** Where status webhooks go from now on. */
  setWebhook(url: string): void;
  /** Meta's subscribe handshake against the webhook URL. */
  handshake(verifyToken: string, challenge: string): Promise<{ status: number; text: string }>;
  close(): Promise<void>;
}

export interface WhatsAppEmulatorOptions {
  token: string;
  phoneNumberId: string;
  appSecret: string;
  templates: readonly TemplateSpec[];
  /** Where status webhooks go (the service's POST /webhooks/whatsapp). */
  webhookUrl?: string;
}

const VERSION = 'v25.0';
const MEDIA_TTL_MS = 30 * 24 * 3_600_000;

class MetaError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** JSON as Meta sends it: every non-ASCII character as \uXXXX. */
export function metaJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

export const hubSign = (raw: string, secret: string) =>
  `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;

/** `to` as Meta takes it: `+`, spaces, `-` and brackets allowed, 8 to 15 digits. */
function recipientDigits(to: unknown): string {
  const bare = typeof to === 'string' ? to.replace(/[\s()-]/g, '') : '';
  if (!/^\+?[1-9]\d{7,14}$/.test(bare))
    throw new MetaError(400, 100, '(#100) Invalid parameter: to is not a phone number');
  return bare.replace(/^\+/, '');
}

export async function startWhatsAppEmulator(options: WhatsAppEmulatorOptions): Promise<WhatsAppEmulator> {
  const calls: EmulatorCall[] = [];
  const messages: SentMessage[] = [];
  const media = new Map<string, { type: string; bytes: Buffer; at: number }>();
  const refusals = new Map<string, { code: number; status: number; times: number }>();
  let seq = 0;
  let webhookUrl = options.webhookUrl;

  function checkTemplate(t: Json | undefined): {
    spec: TemplateSpec;
    image: SentMessage['image'];
    params: Record<string, string>;
  } {
    const language = (t?.language as Json | undefined)?.code;
    const spec = options.templates.find((s) => s.name === t?.name && s.language === language);
    if (!spec)
      throw new MetaError(
        404,
        132001,
        `(#132001) Template name does not exist in the translation: ${String(t?.name)} (${String(language)})`,
      );
    const components = Array.isArray(t?.components) ? (t.components as Json[]) : [];
    const header = components.filter((c) => c.type === 'header');
    const body = components.filter((c) => c.type === 'body');
    const headerParams = (header[0]?.parameters as Json[] | undefined) ?? [];
    const bodyParams = (body[0]?.parameters as Json[] | undefined) ?? [];
    const wantHeader = spec.header === 'image' ? 1 : 0;
    if (
      header.length > 1 ||
      body.length > 1 ||
      headerParams.length !== wantHeader ||
      bodyParams.length !== spec.body.length
    ) {
      throw new MetaError(
        400,
        132000,
        `(#132000) Number of parameters does not match the expected number of params (header ${wantHeader}, body ${spec.body.length})`,
      );
    }
    let image: SentMessage['image'] = {};
    if (wantHeader) {
      const p = headerParams[0]!;
      const img = p.image as Json | undefined;
      if (p.type !== 'image' || !img)
        throw new MetaError(
          400,
          132012,
          '(#132012) Parameter format does not match format in the created template: header is an image',
        );
      if ((img.id === undefined) === (img.link === undefined))
        throw new MetaError(400, 131053, '(#131053) Media upload error: give exactly one of link and id');
      if (img.id !== undefined) {
        const m = media.get(String(img.id));
        if (!m || Date.now() - m.at > MEDIA_TTL_MS)
          throw new MetaError(400, 131053, '(#131053) Media upload error: unknown or expired media id');
      }
      image = img.id !== undefined ? { id: String(img.id) } : { link: String(img.link) };
    }
    const params: Record<string, string> = {};
    spec.body.forEach((name, i) => {
      const p = bodyParams[i]!;
      const text = p.text;
      if (
        p.type !== 'text' ||
        p.parameter_name !== name ||
        typeof text !== 'string' ||
        text === '' ||
        /[\n\t]| {5}/.test(text) ||
        text.length > 1024
      ) {
        throw new MetaError(
          400,
          132012,
          `(#132012) Parameter format does not match format in the created template: body parameter ${i + 1} is {{${name}}} text`,
        );
      }
      params[name] = text;
    });
    return { spec, image, params };
  }

  function send(body: Json): Json {
    if (body.messaging_product !== 'whatsapp')
      throw new MetaError(400, 100, '(#100) The parameter messaging_product is required');
    const digits = recipientDigits(body.to);
    if (body.type !== 'template')
      throw new MetaError(
        400,
        131047,
        '(#131047) Re-engagement message: more than 24 hours since the customer last replied',
      );
    const { spec, image, params } = checkTemplate(body.template as Json | undefined);
    const refusal = refusals.get(digits);
    if (refusal && refusal.times > 0) {
      refusal.times--;
      throw new MetaError(refusal.status, refusal.code, `(#${refusal.code}) refused as scripted`);
    }
    const wamid = `wamid.HBgM${Buffer.from(`${digits}:${++seq}`).toString('base64url')}`;
    const opaque =
      typeof body.biz_opaque_callback_data === 'string' ? body.biz_opaque_callback_data : undefined;
    messages.push({
      wamid,
      to: String(body.to),
      template: spec.name,
      language: spec.language,
      image,
      params,
      opaque,
    });
    return {
      messaging_product: 'whatsapp',
      contacts: [{ input: body.to, wa_id: digits }],
      messages: [{ id: wamid, message_status: 'accepted' }],
    };
  }

  async function upload(req: IncomingMessage, raw: Buffer): Promise<Json> {
    let form: FormData;
    try {
      form = await new Response(new Uint8Array(raw), {
        headers: { 'content-type': String(req.headers['content-type']) },
      }).formData();
    } catch {
      throw new MetaError(400, 100, '(#100) the body is not multipart/form-data');
    }
    if (form.get('messaging_product') !== 'whatsapp')
      throw new MetaError(400, 100, '(#100) The parameter messaging_product is required');
    const file = form.get('file');
    if (!(file instanceof Blob)) throw new MetaError(400, 100, '(#100) The parameter file is required');
    const bytes = Buffer.from(await file.arrayBuffer());
    const isPng = bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const isJpeg = bytes[0] === 0xff && bytes[1] === 0xd8;
    const type = file.type;
    if (
      !['image/png', 'image/jpeg'].includes(type) ||
      (type === 'image/png' ? !isPng : !isJpeg) ||
      bytes.length > 5 * 1024 * 1024 ||
      (form.get('type') ?? type) !== type
    ) {
      throw new MetaError(
        400,
        131053,
        '(#131053) Media upload error: a PNG or JPEG of at most 5 MB whose bytes match its MIME type',
      );
    }
    const id = String(1_000_000_000_000 + ++seq);
    media.set(id, { type, bytes, at: Date.now() });
    return { id };
  }

  async function handle(req: IncomingMessage, res: ServerResponse, raw: Buffer): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const reply = (status: number, body: Json, code?: number) => {
      calls.push({ path, status, ...(code === undefined ? {} : { code }) });
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    try {
      const m = /^\/(v\d+\.\d+)\/([^/]+)\/(messages|media)$/.exec(path);
      if (req.method !== 'POST' || !m)
        throw new MetaError(400, 100, `(#100) Unknown path components: ${path}`);
      if (req.headers.authorization !== `Bearer ${options.token}`)
        throw new MetaError(401, 190, '(#190) Invalid OAuth access token - Cannot parse access token');
      if (m[2] !== options.phoneNumberId)
        throw new MetaError(
          400,
          100,
          `(#100) Unsupported post request. Object with ID '${m[2]}' does not exist`,
        );
      if (m[3] === 'media') return reply(200, await upload(req, raw));
      let body: Json;
      try {
        body = JSON.parse(raw.toString('utf8')) as Json;
      } catch {
        throw new MetaError(400, 100, '(#100) the body is not JSON');
      }
      return reply(200, send(body));
    } catch (err) {
      if (!(err instanceof MetaError)) throw err;
      reply(
        err.status,
        {
          error: {
            message: err.message,
            type: 'OAuthException',
            code: err.code,
            error_data: { messaging_product: 'whatsapp', details: err.message },
            fbtrace_id: `A${seq}`,
          },
        },
        err.code,
      );
    }
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      handle(req, res, Buffer.concat(chunks)).catch((err: unknown) => res.writeHead(500).end(String(err)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;

  const statusBody: WhatsAppEmulator['statusBody'] = (items) =>
    metaJson({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: '102290129340398',
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '15550783881', phone_number_id: options.phoneNumberId },
                statuses: items.map((s) => {
                  const message = messages.find((x) => x.wamid === s.wamid);
                  return {
                    id: s.wamid,
                    status: s.status,
                    timestamp: String(s.at ?? Math.floor(Date.now() / 1000)),
                    recipient_id: s.recipient ?? message?.to.replace(/\D/g, '') ?? '0',
                    ...((s.opaque ?? message?.opaque) !== undefined
                      ? { biz_opaque_callback_data: s.opaque ?? message?.opaque }
                      : {}),
                    pricing: { billable: true, pricing_model: 'PMP', category: 'utility', type: 'regular' },
                    ...(s.status === 'failed'
                      ? {
                          errors: [
                            {
                              code: s.errorCode ?? 131026,
                              title: 'Message undeliverable',
                              message: 'Message undeliverable',
                              error_data: {
                                details: 'Message Undeliverable — the number is not on WhatsApp.',
                              },
                            },
                          ],
                        }
                      : {}),
                  };
                }),
              },
            },
          ],
        },
      ],
    });

  const deliver: WhatsAppEmulator['deliver'] = async (body, o = {}) => {
    if (!webhookUrl) throw new Error('no webhook URL');
    const signature = o.signature === undefined ? hubSign(body, options.appSecret) : o.signature;
    const out: { status: number; body: any }[] = [];
    for (let i = 0; i < (o.attempts ?? 1); i++) {
      const res = await fetch(webhookUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(signature === null ? {} : { 'x-hub-signature-256': signature }),
        },
        body,
      });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON
      }
      out.push({ status: res.status, body: parsed });
      if (res.ok) break;
    }
    return out;
  };

  return {
    url: `http://127.0.0.1:${port}/${VERSION}`,
    calls,
    messages,
    media,
    refuse(to, code, times = 1, status = 400) {
      refusals.set(recipientDigits(to), { code, status, times });
    },
    expireMedia(id) {
      const m = media.get(id);
      if (m) m.at = Date.now() - MEDIA_TTL_MS - 1;
    },
    statusBody,
    deliver,
    setWebhook(url) {
      webhookUrl = url;
    },
    async sendStatuses(wamid, statuses, o = {}) {
      const out: number[] = [];
      for (const status of statuses)
        out.push((await deliver(statusBody([{ wamid, status, ...o }])))[0]!.status);
      return out;
    },
    async handshake(verifyToken, challenge) {
      const url = new URL(webhookUrl!);
      url.search = new URLSearchParams({
        'hub.mode': 'subscribe',
        'hub.verify_token': verifyToken,
        'hub.challenge': challenge,
      }).toString();
      const res = await fetch(url);
      return { status: res.status, text: await res.text() };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
