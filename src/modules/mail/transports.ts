// Mail transports: SMTP when SMTP_URL is set, otherwise each mail is written as an
// .eml file under DATA_DIR/mail. Timeouts are short so an outage fails the job fast
// and the job queue retries it later: mail is delayed, never lost.
import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { MailRefusedError, type Mailer, type OutgoingMail } from './mailer.js';

function message(from: string, mail: OutgoingMail) {
  return {
    // The display name is quoted and encoded by nodemailer; the address stays MAIL_FROM's.
    from: mail.fromName ? { name: mail.fromName, address: from } : from,
    ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    ...(mail.html ? { html: mail.html } : {}),
    attachments: (mail.attachments ?? []).map((a) => ({
      filename: a.filename,
      content: a.content,
      contentType: a.contentType,
      ...(a.cid ? { cid: a.cid } : {}),
    })),
  };
}

export function createMailer(options: {
  smtpUrl?: string | undefined;
  mailFrom: string;
  dataDir: string;
}): Mailer {
  if (options.smtpUrl) {
    const url = new URL(options.smtpUrl);
    const transport = nodemailer.createTransport({
      host: url.hostname,
      port: Number(url.port || (url.protocol === 'smtps:' ? 465 : 587)),
      secure: url.protocol === 'smtps:',
      ...(url.username
        ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } }
        : {}),
      // A server that offers STARTTLS gets it; one that does not (a local relay) is used as it is.
      connectionTimeout: 5000,
      greetingTimeout: 5000,
      socketTimeout: 10_000,
      // A few connections kept open and reused: a broadcast's thousands of mails do not
      // each open their own.
      pool: true,
      maxConnections: 5,
      maxMessages: 100,
    });
    return {
      async send(mail) {
        let info;
        try {
          info = await transport.sendMail(message(options.mailFrom, mail));
        } catch (err) {
          const e = err as { code?: string; responseCode?: number; message?: string };
          if (e.code === 'EENVELOPE' && typeof e.responseCode === 'number' && e.responseCode >= 500) {
            throw new MailRefusedError(`recipient refused by the SMTP server: ${e.message ?? ''}`.trim());
          }
          throw err;
        }
        if (info.rejected.length > 0) throw new MailRefusedError('recipient refused by the SMTP server');
        return { messageId: info.messageId };
      },
      async close() {
        transport.close();
      },
    };
  }
  const dir = join(options.dataDir, 'mail');
  mkdirSync(dir, { recursive: true });
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      const info = await transport.sendMail(message(options.mailFrom, mail));
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(6).toString('hex')}.eml`;
      // Written whole, then renamed: a reader never sees half a mail.
      const tmp = join(dir, `.${name}.tmp`);
      writeFileSync(tmp, info.message as Buffer);
      renameSync(tmp, join(dir, name));
      return { messageId: info.messageId };
    },
    async close() {},
  };
}
