// GST on the dashboard (docs/decisions/17-the-organisers-office.md): the account's settings card (account page) and the tax
// fields of the event form.
import type { Mode } from '../../db/database.js';
import { GST_STATES } from '../../lib/gstin.js';
import { html, type Html } from '../html.js';
import { csrfField } from '../layout.js';

export interface GstSettingsView {
  gstin: string | null;
  legalName: string | null;
  address: string | null;
  state: string | null;
  seriesPrefix: string;
}

function stateOptions(selected: string | null, empty: string): Html {
  return html`<option value="">${empty}</option>${Object.entries(GST_STATES).map(
    ([code, name]) =>
      html`<option value="${code}"${code === selected ? html` selected` : ''}>${name} (${code})</option>`,
  )}`;
}

/** The account's GST settings in the dashboard's mode. */
export function gstSettingsCard(csrf: string, mode: Mode, s: GstSettingsView): Html {
  return html`<section class="card" aria-labelledby="gst-h"><h2 id="gst-h">GST (${mode} mode)</h2>
<p>With a GSTIN, every paid booking confirmed from then on gets a tax invoice (a bill of supply when exempt) from your own numbered series, and a refund a credit note. Without one, no GST documents are issued. Test mode keeps settings of its own, and its documents say TEST MODE.</p>
<p class="hint">This is not tax advice: confirm these settings, and each event’s tax category, with your tax adviser.</p>
<form method="post" action="/dashboard/account/gst">${csrfField(csrf)}
<label for="g-gstin">GSTIN <span class="hint">leave empty if you are not registered</span></label><input id="g-gstin" name="gstin" maxlength="20" autocomplete="off" spellcheck="false" value="${s.gstin ?? ''}">
<label for="g-name">Legal name</label><input id="g-name" name="legalName" required maxlength="200" autocomplete="organization" value="${s.legalName ?? ''}">
<label for="g-address">Address</label><textarea id="g-address" name="address" required maxlength="500" autocomplete="street-address">${s.address ?? ''}</textarea>
<div class="row">
<div><label for="g-state">State <span class="hint">your GSTIN’s, when you give one</span></label><select id="g-state" name="state">${stateOptions(s.state, 'From the GSTIN')}</select></div>
<div><label for="g-prefix">Number prefix <span class="hint">1 to 3 letters or digits</span></label><input id="g-prefix" name="seriesPrefix" maxlength="3" pattern="[A-Za-z0-9]{1,3}" value="${s.seriesPrefix}"></div>
</div>
<p><button>Save GST settings</button></p>
</form></section>`;
}

const CATEGORIES: [value: string, label: string][] = [
  ['standard', 'Standard: 18 % (conferences, workshops, meetups)'],
  [
    'admission_exempt_upto_500',
    'Entertainment or sport admission: exempt at ₹500 or less per person, else 18 %',
  ],
  ['premium_sporting', 'Premium sporting event: 40 %'],
  ['none', 'No GST documents for this event'],
];

/** The event form's GST fields. */
export function eventTaxFields(
  e: {
    taxCategory: string;
    venueState: string | null;
    sac: string | null;
    supplierGstin: string | null;
  } | null,
): Html {
  const category = e?.taxCategory ?? 'standard';
  return html`<fieldset><legend>GST <span class="hint">prices include tax; used when your account has a GSTIN</span></legend>
<label for="f-tax">Tax category</label><select id="f-tax" name="taxCategory">${CATEGORIES.map(([v, l]) => html`<option value="${v}"${v === category ? html` selected` : ''}>${l}</option>`)}</select>
<div class="row">
<div><label for="f-venue-state">Venue state <span class="hint">the place of supply</span></label><select id="f-venue-state" name="venueState">${stateOptions(e?.venueState ?? null, 'Your own state')}</select></div>
<div><label for="f-sac">SAC <span class="hint">optional, e.g. 999622</span></label><input id="f-sac" name="sac" maxlength="6" inputmode="numeric" value="${e?.sac ?? ''}"></div>
</div>
<label for="f-supplier">Supplier GSTIN <span class="hint">only for a registration in the event’s state that is not your account’s</span></label><input id="f-supplier" name="supplierGstin" maxlength="20" spellcheck="false" value="${e?.supplierGstin ?? ''}">
</fieldset>`;
}
