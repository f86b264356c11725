// Named component schemas, so a generated SDK shows `Event`, `Registration`, … instead of
// anonymous inline types. Each name is given by where its schema is served (an operation's
// answer) rather than by importing the modules' TypeBox objects: the document is the source,
// and every deep-equal copy of that schema anywhere in the document becomes a `$ref`.
type Json = Record<string, unknown>;

/**
 * name → [operationId, status, …steps]: the schema of that answer (`request`: of the request
 * body); a step is a property name, or `items` (an array's items), or `anyOf:0` / `oneOf:0`.
 */
export const NAMED_SCHEMAS: Readonly<Record<string, readonly string[]>> = {
  Event: ['getEvent', '200', 'data'],
  Track: ['listTracks', '200', 'data', 'items'],
  Availability: ['getAvailability', '200', 'data'],
  Registration: ['getRegistration', '200', 'data'],
  PromoCode: ['listPromoCodes', '200', 'data', 'items'],
  Plan: ['listPlans', '200', 'data', 'items'],
  Membership: ['listMembers', '200', 'data', 'items'],
  Payout: ['getPayout', '200'],
  LedgerEntry: ['listLedgerEntries', '200', 'data', 'items'],
  WebhookConfig: ['getWebhookConfig', '200', 'data', 'anyOf:0'],
  DoorPass: ['listDoorPasses', '200', 'data', 'items'],
  ApiKey: ['listApiKeys', '200', 'data', 'items'],
  CheckInStatus: ['lookUpTicket', '200', 'data'],
  CheckInRefusal: ['checkIn', '409'],
  AudienceChanged: ['broadcast', '409'],
  RegisterBooking: ['register', 'request', 'oneOf:0'],
  RegisterPayment: ['register', 'request', 'oneOf:1'],
  CheckInByRegistrationId: ['checkIn', 'request', 'oneOf:0'],
  CheckInByQr: ['checkIn', 'request', 'oneOf:1'],
  RecurringPlanInput: ['createPlan', 'request', 'oneOf:0'],
  FixedTermPlanInput: ['createPlan', 'request', 'oneOf:1'],
  PercentPromoCodeInput: ['createPromoCode', 'request', 'oneOf:0'],
  AmountPromoCodeInput: ['createPromoCode', 'request', 'oneOf:1'],
  AuditEntry: ['listAuditLog', '200', 'data', 'items'],
};

function find(doc: Json, path: readonly string[]): Json | undefined {
  const [operationId, status, ...steps] = path;
  for (const item of Object.values((doc.paths ?? {}) as Record<string, Json>)) {
    for (const op of Object.values(item) as Json[]) {
      if (op?.operationId !== operationId) continue;
      let node = (
        status === 'request'
          ? op.requestBody
          : ((op.responses as Json | undefined)?.[status!] as Json | undefined)
      ) as Json | undefined;
      node = ((node?.content as Json | undefined)?.['application/json'] as Json | undefined)?.schema as
        | Json
        | undefined;
      for (const step of steps) {
        if (!node) return undefined;
        if (step === 'items') node = node.items as Json | undefined;
        else if (step.startsWith('anyOf:'))
          node = (node.anyOf as Json[] | undefined)?.[Number(step.slice(6))];
        else if (step.startsWith('oneOf:'))
          node = (node.oneOf as Json[] | undefined)?.[Number(step.slice(6))];
        else node = (node.properties as Json | undefined)?.[step] as Json | undefined;
      }
      return node;
    }
  }
  return undefined;
}

/** Replaces every copy of a named schema in the document by a `$ref` to `components.schemas`. */
export function nameSchemas(
  doc: Json,
  named: Readonly<Record<string, readonly string[]>> = NAMED_SCHEMAS,
): void {
  const found = new Map<string, string>(); // canonical JSON → name
  const schemas = ((doc.components ??= {}) as Json).schemas as Json | undefined;
  const out: Json = schemas ?? {};
  for (const [name, path] of Object.entries(named)) {
    const schema = find(doc, path);
    if (!schema || '$ref' in schema) continue;
    const key = JSON.stringify(schema);
    if (found.has(key)) continue;
    found.set(key, name);
    out[name] = structuredClone(schema);
  }
  const walk = (node: unknown, self?: string): unknown => {
    if (Array.isArray(node)) return node.map((n) => walk(n, self));
    if (!node || typeof node !== 'object') return node;
    const name = found.get(JSON.stringify(node));
    if (name !== undefined && name !== self) return { $ref: `#/components/schemas/${name}` };
    const copy: Json = {};
    for (const [k, v] of Object.entries(node)) copy[k] = walk(v, undefined);
    return copy;
  };
  doc.paths = walk(doc.paths);
  // A named schema may hold another (an event's tracks): those become references too.
  for (const name of found.values()) {
    const own = out[name] as Json;
    const copy: Json = {};
    for (const [k, v] of Object.entries(own)) copy[k] = walk(v, name);
    out[name] = copy;
  }
  (doc.components as Json).schemas = out;
}
