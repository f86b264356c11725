// What `npm start` prints when no account exists yet: the dashboard's address first (a
// newcomer opens it and signs up there), then the same with curl, then where the API is
// described. A reduced email check is said here too, since every address would otherwise
// look refused or accepted for no visible reason.

/** The address a person can open: an unspecified HOST (0.0.0.0, ::) is reached as localhost. */
export function listeningUrl(host: string, port: number): string {
  const shown = host === '0.0.0.0' || host === '::' || host === '' ? 'localhost' : host;
  return `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}`;
}

export interface StartMessageInput {
  /** The service's address, without a trailing slash. */
  url: string;
  /** Which database: "PostgreSQL" or "embedded database in ./data". */
  storage: string;
  /** The /readyz detail while the email check is reduced. */
  emailCheckDetail?: string | undefined;
}

export function startMessage({ url, storage, emailCheckDetail }: StartMessageInput): string {
  const lines = [
    '',
    `Open the dashboard: ${url}/dashboard`,
    '',
    `The service is running on ${url} (${storage}).`,
    'No account exists yet. Sign up in the dashboard, or with curl, then create a test key:',
    '',
    `  curl -s ${url}/auth/signup -H 'content-type: application/json' \\`,
    `    -d '{"email":"you@example.in","password":"a long password","name":"Your Name"}'`,
    '',
    `  curl -s ${url}/dashboard/api/keys -H 'content-type: application/json' \\`,
    `    -H 'authorization: Bearer <idToken from the answer above>' -d '{"mode":"test","class":"full"}'`,
    '',
    `  curl -s ${url}/api/v1/me -H 'x-api-key: <key from the answer above>'`,
    '',
    `The API is described at ${url}/api/v1/openapi.json`,
  ];
  if (emailCheckDetail) lines.push('', `Warning: ${emailCheckDetail}`);
  return `${lines.join('\n')}\n`;
}
