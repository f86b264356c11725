// The mail transport interface. Implementations: SMTP (SMTP_URL) or .eml files under
// DATA_DIR/mail. Test mode never reaches a Mailer: its mails are kept for
// GET /api/v1/sandbox/emails instead.

export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
  /** Set to reference the attachment inline from HTML as `cid:<cid>`. */
  cid?: string;
}

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: MailAttachment[];
  /**
   * The sender's display name before MAIL_FROM's address: an organiser's mails carry the
   * organisation's name (never a person's); the service's own mails none.
   */
  fromName?: string | undefined;
  /** Where a reply goes (the organiser's reply-to setting); none: to MAIL_FROM. */
  replyTo?: string | undefined;
}

export interface Mailer {
  /** Resolves when the transport accepted the mail; rejects when it did not (the job retries). */
  send(mail: OutgoingMail): Promise<{ messageId: string }>;
  close(): Promise<void>;
}

/** The mail server refused the recipient for good (5xx): retrying will not help. */
export class MailRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MailRefusedError';
  }
}
