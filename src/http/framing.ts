// Which answers a browser may show inside a frame: only the hosted checkout (/e/*, /m/*,
// /embed/*) may be framed, by any site; every other answer, JSON included, may not.
declare module 'fastify' {
  interface FastifyContextConfig {
    /** The framing headers of the route's answers (worked out once, when the route is added). */
    frameHeaders?: Readonly<Record<string, string>>;
  }
}

const FRAMEABLE = Object.freeze({ 'content-security-policy': 'frame-ancestors *' });
const NOT_FRAMEABLE = Object.freeze({
  'content-security-policy': "frame-ancestors 'none'",
  'x-frame-options': 'DENY',
});

/** Only the hosted checkout may be framed. */
export function framingOf(path: string): Readonly<Record<string, string>> {
  return path.startsWith('/e/') || path.startsWith('/m/') || path.startsWith('/embed/')
    ? FRAMEABLE
    : NOT_FRAMEABLE;
}
