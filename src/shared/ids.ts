import { randomBytes } from 'node:crypto';

export interface Ids {
  /** `prefix_` followed by `bytes` random bytes in base64url (default 16 = 128 bits). */
  make(prefix: string, bytes?: number): string;
  /** Raw random bytes, for secrets. */
  secret(bytes: number): string;
}

export const randomIds: Ids = {
  make: (prefix, bytes = 16) => `${prefix}_${randomBytes(bytes).toString('base64url')}`,
  secret: (bytes) => randomBytes(bytes).toString('base64url'),
};
