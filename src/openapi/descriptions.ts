// The sentence per error status the document carries on every error answer whose route gives
// none (each operation's own description and success answers' texts are beside its route, in
// its file under routes/). Nothing here is guessed at run time: a success answer without a text
// keeps Fastify's "Default Response" and test/openapi/validators.test.ts names it.
type Json = Record<string, unknown>;

/** status → what an error answer of that status means, for answers whose route gives no description. */
export const STATUS_DESCRIPTIONS: Readonly<Record<string, string>> = {
  '304': 'Not modified (If-None-Match matched the ETag).',
  '400':
    'The request is malformed or breaks a rule of its schema; `code` names the rule and `field` the input.',
  '401': 'No credentials, or credentials the service does not accept.',
  '402': 'The payment is required first, or the gateway refused it.',
  '403':
    'The credentials are valid but may not do this (another account’s object, a key of the wrong class or mode, a revoked key).',
  '404': 'No such object in this account and mode.',
  '405': 'The path exists but not with this method; `Allow` lists the methods.',
  '408': 'The request did not arrive whole in time.',
  '409': 'The object’s state refuses this now (`code` says why); nothing was changed.',
  '410': 'The object existed but is gone.',
  '413': 'The body is larger than this operation accepts.',
  '415': 'The body is not `application/json`.',
  '422': 'The request is well formed but cannot be carried out (`code` says why); nothing was changed.',
  '429': 'Too many requests in this window; `Retry-After` says when to try again.',
  '500': 'An internal fault; the answer says nothing more, the log has it with the request id.',
  '502':
    'The payment or payout gateway failed or gave an answer the service could not use; nothing was recorded as done.',
  '503':
    'A dependency (the database, the gateway) is unavailable; try again later. `database_unavailable`: the database went away under the request or cannot be reached now (a restart, a failover, a terminated connection); nothing of the request was written (its transaction rolled back), `Retry-After` says when to try again, and a retry with the same `Idempotency-Key` cannot do it twice.',
  '504': 'The gateway did not answer in time; the outcome is reconciled later.',
};

const DEFAULT = 'Default Response';
const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);

/** A usable contact: the mail sender when it is an address a validator accepts, else the service's URL. */
export function contactFor(mailFrom: string, baseUrl: string): Json {
  return /^[^\s@<>]+@[^\s@<>.]+(\.[^\s@<>.]+)+$/.test(mailFrom)
    ? { name: 'API support', email: mailFrom, url: baseUrl }
    : { name: 'API support', url: baseUrl };
}

/** Fills in each error answer's description from the status table above. */
export function describeOperations(doc: Json): void {
  for (const item of Object.values((doc.paths ?? {}) as Record<string, Json>)) {
    for (const [method, op] of Object.entries(item as Record<string, Json>)) {
      if (!METHODS.has(method) || !op || typeof op !== 'object') continue;
      for (const [status, response] of Object.entries((op.responses ?? {}) as Record<string, Json>)) {
        if (response.description && response.description !== DEFAULT) continue;
        const text = status.startsWith('2') ? undefined : STATUS_DESCRIPTIONS[status];
        if (text) response.description = text;
      }
    }
  }
}
