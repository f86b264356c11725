// The WhatsApp Cloud API calls a ticket needs (docs/guides/tickets-wallet-and-whatsapp.md):
// upload the QR as media (`POST /{phone-number-id}/media`, multipart) and send the
// template with that media id as its header image (`POST /{phone-number-id}/messages`).
// Bearer auth with the system user's token, a timeout, no redirects. A refusal becomes a
// CloudApiError with Meta's error code; the token never appears in one.
export class CloudApiError extends Error {
  constructor(
    message: string,
    /** Meta's error code (190, 132000, 131056, …), when the answer had one. */
    readonly code: number | undefined,
  ) {
    super(message);
    this.name = 'CloudApiError';
  }
}

export interface TemplateMessage {
  to: string;
  template: string;
  language: string;
  /** The header image: an uploaded media id. */
  mediaId: string;
  /** Named body parameters, in the template's order. */
  body: readonly { name: string; text: string }[];
  /** Echoed in status webhooks. */
  opaque: string;
}

export interface CloudApi {
  uploadPng(png: Buffer): Promise<string>;
  sendTemplate(message: TemplateMessage): Promise<{ wamid: string }>;
  /** A template without a header: its named body parameters only (a one-time code). */
  sendTextTemplate(message: Omit<TemplateMessage, 'mediaId'>): Promise<{ wamid: string }>;
}

/** A template text parameter: no line breaks or tabs, no runs of spaces, at most 1,024 characters (Meta refuses them). */
export function templateText(s: string): string {
  return s.replace(/\s+/g, ' ').trim().slice(0, 1024) || '-';
}

/** The JSON of a ticket's template message (without `mediaId`: no header). */
export function templateBody(
  m: Omit<TemplateMessage, 'mediaId'> & { mediaId?: string },
): Record<string, unknown> {
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to: m.to,
    type: 'template',
    biz_opaque_callback_data: m.opaque,
    template: {
      name: m.template,
      language: { code: m.language },
      components: [
        ...(m.mediaId === undefined
          ? []
          : [{ type: 'header', parameters: [{ type: 'image', image: { id: m.mediaId } }] }]),
        {
          type: 'body',
          parameters: m.body.map((p) => ({
            type: 'text',
            parameter_name: p.name,
            text: templateText(p.text),
          })),
        },
      ],
    },
  };
}

export function cloudApi(options: {
  apiUrl: string;
  token: string;
  phoneNumberId: string;
  timeoutMs?: number;
}): CloudApi {
  const base = `${options.apiUrl.replace(/\/+$/, '')}/${options.phoneNumberId}`;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const call = async (
    path: string,
    body: string | FormData,
    contentType?: string,
  ): Promise<Record<string, unknown>> => {
    let res: Response;
    try {
      res = await fetch(base + path, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${options.token}`,
          accept: 'application/json',
          ...(contentType ? { 'content-type': contentType } : {}),
        },
        body,
        signal: AbortSignal.timeout(timeoutMs),
        redirect: 'error',
      });
    } catch (err) {
      const timedOut = ['TimeoutError', 'AbortError'].includes((err as Error).name);
      throw new CloudApiError(
        timedOut
          ? `the WhatsApp Cloud API did not answer POST ${path} within ${timeoutMs} ms`
          : `the WhatsApp Cloud API could not be reached: ${(err as Error).message}`,
        undefined,
      );
    }
    let parsed: Record<string, unknown> | undefined;
    try {
      parsed = (await res.json()) as Record<string, unknown>;
    } catch {
      parsed = undefined;
    }
    if (res.ok && parsed && typeof parsed === 'object') return parsed;
    const error = parsed?.error as { code?: unknown; message?: unknown } | undefined;
    const code = typeof error?.code === 'number' ? error.code : undefined;
    const message = typeof error?.message === 'string' ? error.message.slice(0, 300) : `HTTP ${res.status}`;
    throw new CloudApiError(
      `the WhatsApp Cloud API refused POST ${path} (HTTP ${res.status}${code === undefined ? '' : `, code ${code}`}): ${message}`,
      code,
    );
  };
  const send = async (message: Omit<TemplateMessage, 'mediaId'> & { mediaId?: string }) => {
    const answer = await call('/messages', JSON.stringify(templateBody(message)), 'application/json');
    const wamid = (answer.messages as { id?: unknown }[] | undefined)?.[0]?.id;
    if (typeof wamid !== 'string')
      throw new CloudApiError('the WhatsApp Cloud API answered a message without its id', undefined);
    return { wamid };
  };
  return {
    async uploadPng(png) {
      const form = new FormData();
      form.append('messaging_product', 'whatsapp');
      form.append('type', 'image/png');
      form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'ticket.png');
      const answer = await call('/media', form);
      if (typeof answer.id !== 'string')
        throw new CloudApiError('the WhatsApp Cloud API answered a media upload without an id', undefined);
      return answer.id;
    },
    sendTemplate: (message) => send(message),
    sendTextTemplate: (message) => send(message),
  };
}
