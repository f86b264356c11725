// The operationId of every operation, in one place: the names an SDK generated from the
// document shows its users (`createEvent`, `transferRegistration`). A route may set its own
// `operationId` in its schema instead, as the routes moved into files of their own do; a
// documented route with neither stops the service from starting (route-docs.ts).
export const OPERATION_IDS: Readonly<Record<string, string>> = {
  'GET /auth/password/reset': 'openPasswordResetLink',
};

/** `/api/v1/events/:id` → `/api/v1/events/{id}` (the document's spelling). */
export const documentPath = (url: string): string => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** The operationId for a route: its schema's own, else the table's; undefined when it has neither. */
export function operationIdFor(method: string, url: string, own: string | undefined): string | undefined {
  return own ?? OPERATION_IDS[`${method.toUpperCase()} ${documentPath(url)}`];
}
