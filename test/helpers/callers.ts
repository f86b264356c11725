// Named callers beside `keyApi` (factories.ts), for the other ways a test speaks to the service:
// a door device holding a door pass, and a dashboard session holding its bearer token.
import { call, type Reply } from './http.js';

const read = (v: string | (() => string)) => (typeof v === 'function' ? v() : v);

/** Calls as a door device: `asPass(method, path, token, body?)`. */
export type PassApi = (method: string, path: string, token: string, body?: unknown) => Promise<Reply>;

/** A door device's caller (`DoorPass <token>`); the address may be a function, read at each call. */
export function passApi(baseUrl: string | (() => string)): PassApi {
  return (method, path, token, body) =>
    call(read(baseUrl), method, path, { body, headers: { authorization: `DoorPass ${token}` } });
}

/** Calls with a session's bearer token: `dash(method, path, body?)`. */
export type TokenApi = (method: string, path: string, body?: unknown) => Promise<Reply>;

/** A signed-in session's caller (`Bearer <token>`); the address and token may be functions, read at each call. */
export function tokenApi(baseUrl: string | (() => string), token: string | (() => string)): TokenApi {
  return (method, path, body) => call(read(baseUrl), method, path, { token: read(token), body });
}
