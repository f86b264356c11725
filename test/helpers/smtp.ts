// A real SMTP server in process (smtp-server), keeping every message it accepts, parsed.
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { drainJobs, type TestServer } from './server.js';

export interface SmtpSink {
  url: string;
  port: number;
  messages: (ParsedMail & { envelopeTo: string[] })[];
  close(): Promise<void>;
}

export async function startSmtp(port = 0): Promise<SmtpSink> {
  const messages: SmtpSink['messages'] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // Pooled clients keep connections open; a test that stops the server does not wait 30 s for them.
    closeTimeout: 500,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          messages.push(Object.assign(parsed, { envelopeTo: session.envelope.rcptTo.map((r) => r.address) }));
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  const address = server.server.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  return {
    url: `smtp://127.0.0.1:${actual}`,
    port: actual,
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The verification mails the sink holds for `email`, oldest first. */
export const verificationMails = (smtp: SmtpSink, email: string) =>
  smtp.messages.filter((m) => m.envelopeTo.includes(email) && m.subject === 'Confirm your email address');

/**
 * Runs the server's jobs until verification mail number `index` (0 is the sign-up's) to
 * `email` has arrived over SMTP, and answers the link it carries.
 */
export async function verificationLink(
  server: TestServer,
  smtp: SmtpSink,
  email: string,
  index = 0,
): Promise<URL> {
  await drainJobs(server, async () => verificationMails(smtp, email).length > index);
  const mail = verificationMails(smtp, email)[index]!;
  const m = /(https?:\/\/\S+\/auth\/verify\?token=[A-Za-z0-9_-]+)/.exec(mail.text ?? '');
  if (!m) throw new Error(`no verification link in: ${mail.text}`);
  return new URL(m[1]!);
}
