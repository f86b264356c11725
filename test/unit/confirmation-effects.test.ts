// The one-statement free booking is built from the same effect list as applyConfirmation
// (issue #23): every effect a confirmation has is named in ONE_STATEMENT_EFFECTS (the
// compiler refuses a missing one), applyConfirmation writes every one of them, and the
// one-statement path refuses a booking carrying an effect it cannot write.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import ts from 'typescript';
import {
  confirmationEffects,
  ONE_STATEMENT_EFFECTS,
  oneStatementEffects,
  type ConfirmedBooking,
} from '../../src/modules/registrations/confirmation.js';
import { ManualClock } from '../../src/lib/clock.js';
import { randomIds } from '../../src/lib/ids.js';

const deps = { clock: new ManualClock(new Date('2026-11-01T10:00:00Z')), ids: randomIds };
const event = {
  id: 'ev_1',
  account_id: 'usr_1',
  mode: 'test' as const,
  title: 'Meetup',
  slug: 'meetup',
  ticket_emails_enabled: true,
  start_date: new Date('2026-12-01T10:00:00Z'),
  special_prices: [],
  tracks: [],
  tax_category: 'none' as const,
  supplier_gstin: null,
  sac: null,
  venue_state: null,
} as unknown as Parameters<typeof confirmationEffects>[1];
const booking: ConfirmedBooking = {
  id: 'reg_1',
  mode: 'test',
  name: 'Asha',
  email: 'asha@example.in',
  phone: null,
  whatsapp_opt_in: false,
  ticket_type: 'General',
  sub_event_id: null,
  quantity: 1,
  amount_paise: 0,
  currency: 'INR',
  promo_code: null,
};

/** The `effects.<name>` that applyConfirmation reads, found in its source by the compiler. */
function effectsWrittenByApplyConfirmation(): string[] {
  const path = 'src/modules/registrations/confirmation.ts';
  const sf = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.ES2022, true);
  const found = new Set<string>();
  const visit = (node: ts.Node, inside: boolean): void => {
    const here = inside || (ts.isFunctionDeclaration(node) && node.name?.text === 'applyConfirmation');
    if (
      here &&
      ts.isPropertyAccessExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'effects'
    )
      found.add(node.name.text);
    ts.forEachChild(node, (c) => visit(c, here));
  };
  visit(sf, false);
  return [...found].sort();
}

describe('the one-statement free booking and applyConfirmation share one effect list', () => {
  it('every effect a confirmation has is named for the one-statement path', () => {
    assert.deepEqual(
      Object.keys(confirmationEffects(deps, event, booking, ['reg_1'])).sort(),
      Object.keys(ONE_STATEMENT_EFFECTS).sort(),
    );
  });

  it('applyConfirmation writes every effect of the list, no more and no fewer', () => {
    assert.deepEqual(effectsWrittenByApplyConfirmation(), Object.keys(ONE_STATEMENT_EFFECTS).sort());
  });

  it('the one-statement path writes the jobs and the webhook of the same effects', () => {
    const effects = confirmationEffects(deps, event, booking, ['reg_1', 'tkt_2']);
    const written = oneStatementEffects(deps, effects);
    assert.deepEqual(written.jobs, effects.jobs);
    assert.equal(written.jobs.length, 2, 'a ticket mail per person');
    assert.equal(written.webhookType, 'registration.confirmed');
    assert.equal(JSON.parse(written.webhookJob.payload).data.registrationId, 'reg_1');
  });

  it('refuses a booking carrying an effect the statement cannot write (a promo use, fees, a sale)', () => {
    for (const b of [
      { ...booking, promo_code: 'EARLY' },
      { ...booking, amount_paise: 50_000 },
      { ...booking, mode: 'live' as const, amount_paise: 50_000 },
    ]) {
      assert.throws(
        () => oneStatementEffects(deps, confirmationEffects(deps, event, b, ['reg_1'])),
        /one-statement free booking cannot write the effect/,
      );
    }
  });
});
