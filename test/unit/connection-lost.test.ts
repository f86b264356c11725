// Which failures count as the database being away (src/lib/pg-errors.ts): they answer 503
// database_unavailable with Retry-After, not a 500.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isConnectionLost } from '../../src/lib/pg-errors.js';

describe('a database that is away', () => {
  const node = (code: string, syscall: string) =>
    Object.assign(new Error(`${syscall} ${code}`), { code, syscall });
  it('is a lost connection: refused, no socket, cut, starting up, shutting down, timed out', () => {
    for (const err of [
      node('ECONNREFUSED', 'connect'),
      node('ENOENT', 'connect'), // the Unix socket's file is gone while the embedded server restarts
      node('EPIPE', 'write'), // five capitals, like a SQLSTATE
      node('ECONNRESET', 'read'),
      Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      Object.assign(new Error('terminating connection because of crash of another server process'), {
        code: '57P02',
      }),
      new Error('Connection terminated due to connection timeout'),
      new Error('Connection terminated unexpectedly'),
    ])
      assert.equal(isConnectionLost(err), true, err.message);
  });

  it('is not any missing file or other fault', () => {
    for (const err of [
      node('ENOENT', 'open'),
      Object.assign(new Error('duplicate key'), { code: '23505' }),
      new Error('boom'),
    ])
      assert.equal(isConnectionLost(err), false, err.message);
  });
});
