// The waitlist's offer, as a person waiting receives it: the "held for you" mail, and the offer
// token its link carries (`?offer=`), once the jobs have sent it.
import type { Api } from './factories.js';
import { drainJobs, type TestServer } from './server.js';

type Mail = { to: string[]; text: string; subject: string };

/** The offer mail sent to `email` (run the jobs until it is there), and its token. */
export async function offerMailTo(
  server: TestServer,
  api: Api,
  email: string,
): Promise<{ mail: Mail; token: string }> {
  let mail: Mail | undefined;
  await drainJobs(server, async () => {
    const mails = (await api('GET', '/api/v1/sandbox/emails?limit=1000')).body.data as Mail[];
    mail = mails.find((m) => m.to.some((t) => t.includes(email)) && /held for you/.test(m.subject));
    return mail !== undefined;
  });
  return { mail: mail!, token: /[?&]offer=([A-Za-z0-9_.-]+)/.exec(mail!.text)![1]! };
}
