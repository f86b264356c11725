// Event slugs from titles: lowercase ASCII words joined by single hyphens, at most 60
// characters, "event" when nothing of the title is left.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { slugify } from '../../src/modules/events/slug.js';

describe('slugify', () => {
  it('lowercases and joins words with single hyphens', () => {
    assert.equal(slugify('Jazz Night 2026'), 'jazz-night-2026');
    assert.equal(slugify('Rock & Roll -- Live!!'), 'rock-roll-live');
    assert.equal(slugify('  --Leading and trailing--  '), 'leading-and-trailing');
  });

  it('drops accents and folds compatibility forms to their letters', () => {
    assert.equal(slugify('Café Déjà Vu'), 'cafe-deja-vu');
    assert.equal(slugify('Ｆｕｌｌｗｉｄｔｈ ﬁesta'), 'fullwidth-fiesta');
  });

  it('falls back to "event" when no letter or digit is left', () => {
    for (const title of ['', '   ', '!!!', 'संगीत संध्या', '🎉🎉']) assert.equal(slugify(title), 'event', title);
    assert.equal(slugify('संगीत 2026'), '2026', 'what is left of a non-Latin title stays');
  });

  it('cuts at 60 characters without leaving a hyphen at the end', () => {
    assert.equal(slugify('a'.repeat(100)), 'a'.repeat(60));
    // The 60th character is a hyphen: it goes.
    assert.equal(slugify(`${'a'.repeat(59)} b`), 'a'.repeat(59));
  });

  it('always gives a non-empty [a-z0-9-] slug of at most 60 characters, no hyphen at either end or twice', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), (title) => {
        const s = slugify(title);
        return /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(s) && s.length <= 60;
      }),
      { seed: 20260101, numRuns: 500 },
    );
  });
});
