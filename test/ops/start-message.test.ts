// The start-up message (docs/decisions/28-a-persons-day.md, trying it without a website): the dashboard's address comes
// first, then the curl route, then the API document; a reduced email check is said too.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { listeningUrl, startMessage } from '../../src/modules/ops/start-message.js';

describe('the start-up message', () => {
  it('leads with the dashboard’s address, then the rest', () => {
    const text = startMessage({ url: 'http://127.0.0.1:3000', storage: 'embedded database in ./data' });
    const lines = text.split('\n').filter((l) => l.trim() !== '');
    assert.equal(lines[0], 'Open the dashboard: http://127.0.0.1:3000/dashboard');
    const at = (s: string) => text.indexOf(s);
    assert.ok(at('/dashboard') < at('curl'), 'the dashboard before any curl command');
    assert.ok(at('curl -s http://127.0.0.1:3000/auth/signup') > 0);
    assert.ok(at('http://127.0.0.1:3000/api/v1/openapi.json') > at('curl'));
    assert.doesNotMatch(text, /Warning/);
  });

  it('adds the reduced email check’s detail as a warning', () => {
    const text = startMessage({
      url: 'http://127.0.0.1:3000',
      storage: 'PostgreSQL',
      emailCheckDetail: 'The DNS resolver says gmail.com does not exist.',
    });
    assert.match(text, /\nWarning: The DNS resolver says gmail\.com does not exist\.\n$/);
  });

  it('names an address a browser can open', () => {
    assert.equal(listeningUrl('127.0.0.1', 3000), 'http://127.0.0.1:3000');
    assert.equal(listeningUrl('0.0.0.0', 8080), 'http://localhost:8080');
    assert.equal(listeningUrl('::', 8080), 'http://localhost:8080');
    assert.equal(listeningUrl('::1', 3000), 'http://[::1]:3000');
  });
});
