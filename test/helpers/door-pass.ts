// A caller holding a door pass (the `DoorPass <token>` the door's device sends), as `keyApi` is
// one holding an API key.
import { call, type Reply } from './http.js';

/** Calls as a door device: `asPass(method, path, token, body?)`. */
export type PassApi = (method: string, path: string, token: string, body?: unknown) => Promise<Reply>;

/** A door device's caller; the address may be a function, read at each call. */
export function passApi(baseUrl: string | (() => string)): PassApi {
  return (method, path, token, body) =>
    call(typeof baseUrl === 'function' ? baseUrl() : baseUrl, method, path, {
      body,
      headers: { authorization: `DoorPass ${token}` },
    });
}
