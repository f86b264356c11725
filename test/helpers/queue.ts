// The waiting room from a buyer's side (docs/decisions/26-a-fair-waiting-room.md): solve the
// service's challenge as the ALTCHA widget does, join, read the one-time code from the mail the
// service sent (test mode keeps it for the Test inbox), verify, ask for the place's state. And
// whether a Redis answers for the tests that run the queue in Redis.
import { type Challenge, solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { call } from './http.js';
import { keptMail } from './rows.js';
import { drainJobs, serverAt } from './server.js';

export { REDIS_URL, redisAnswers } from './redis.js';

/** The `altcha` field for a solution of `challenge` (base64 of `{ challenge, solution }`). */
export async function solved(challenge: Challenge, counter?: number): Promise<string> {
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('the challenge was not solved');
  const s = counter === undefined ? solution : { ...solution, counter };
  return Buffer.from(JSON.stringify({ challenge, solution: s })).toString('base64');
}

export async function challengeOf(url: string, slug: string): Promise<Challenge> {
  const r = await call(url, 'GET', `/e/${slug}/queue/challenge`);
  if (r.status !== 200) throw new Error(`challenge: ${r.status} ${r.text}`);
  return r.body as Challenge;
}

/** Joins (step one) with a freshly solved challenge; answers the raw response. */
export async function joinQueue(
  url: string,
  slug: string,
  email: string,
  more: { phone?: string; channel?: 'email' | 'whatsapp' } = {},
) {
  const altcha = await solved(await challengeOf(url, slug));
  return call(url, 'POST', `/e/${slug}/queue/join`, { body: { email, ...more, altcha } });
}

/** Gives a code back (step two); answers the raw response. */
export function verifyQueue(url: string, slug: string, verificationId: string, code: string) {
  return call(url, 'POST', `/e/${slug}/queue/verify`, { body: { verificationId, code } });
}

/**
 * The code of a test-mode join, read from the mail the service kept for the Test inbox: runs the
 * jobs of the server at `url` (started by this process) until the mail is there.
 */
export async function mailedCode(url: string, verificationId: string): Promise<string> {
  const server = serverAt(url);
  if (!server) throw new Error(`no test server at ${url}`);
  if (process.env.TEST_DATABASE_URL && server.deps.config.databaseUrl === process.env.TEST_DATABASE_URL)
    throw new Error(
      'a server that joins a waiting room runs on a database of its own: startServer({ isolatedDatabase: true })',
    );
  await drainJobs(server, async () => (await keptMail(server, `${verificationId}:code`)) !== undefined);
  const mail = (await keptMail(server, `${verificationId}:code`))!;
  const m = /\b(\d{6})\b/.exec(mail.text);
  if (!m) throw new Error(`no code in: ${mail.text}`);
  return m[1]!;
}

/** Joins, reads the mailed code and verifies (each checked); answers the place and its status token. */
export async function place(
  url: string,
  slug: string,
  email: string,
  verifyAt: string = url,
): Promise<{ placeId: string; statusToken: string }> {
  const r = await joinQueue(url, slug, email);
  if (r.status !== 202) throw new Error(`join: ${r.status} ${r.text}`);
  const v = await verifyQueue(
    verifyAt,
    slug,
    r.body.verificationId,
    await mailedCode(url, r.body.verificationId),
  );
  if (v.status !== 200) throw new Error(`verify: ${v.status} ${v.text}`);
  return v.body;
}

export async function queueStatus(url: string, slug: string, token: string) {
  const r = await call(url, 'GET', `/e/${slug}/queue/status?token=${encodeURIComponent(token)}`);
  if (r.status !== 200) throw new Error(`status: ${r.status} ${r.text}`);
  return r.body as {
    state: 'waiting' | 'admitted' | 'closed';
    position: number | null;
    ahead: number | null;
    estimatedWaitSeconds: number | null;
    admissionToken?: string;
  };
}
