import { Type } from 'typebox';
import { FULL_ONLY, keyPrincipal } from '../../../http/auth.js';
import * as gst from '../gst.service.js';
import { Settings, SettingsBody } from '../gst.schemas.js';
import { type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { GstRouteDeps } from './gst-shared.js';

const examples: OperationExamples = {
  requests: {
    default: {
      value: {
        gstin: '27AAPFU0939F1ZV',
        legalName: 'Acme Events LLP',
        address: '14 FC Road, Shivajinagar, Pune 411005',
        state: '27',
        seriesPrefix: 'TIX',
      },
    },
  },
  responses: {
    '200': {
      success: true,
      data: {
        mode: 'test',
        registered: true,
        gstin: '27AAPFU0939F1ZV',
        legalName: 'Acme Events LLP',
        address: '14 FC Road, Shivajinagar, Pune 411005',
        state: '27',
        stateName: 'Maharashtra',
        seriesPrefix: 'TIX',
        updatedAt: '2026-11-25T07:51:24.908Z',
      },
    },
  },
};

export const putGstSettings: Operation<GstRouteDeps> = (app, deps) =>
  app.put(
    '/api/v1/gst/settings',
    {
      config: { auth: FULL_ONLY, examples },
      schema: {
        operationId: 'putGstSettings',
        tags: ['gst'],
        summary: 'Set the account’s GST settings in the key’s mode',
        description: [
          'Replaces the settings of the key’s account and mode (test and live keep their own, as webhooks do, so test mode can be tried with any GSTIN). With a `gstin`, every paid booking confirmed from then on gets a tax invoice (a bill of supply when exempt) from this account’s series; without one, none. `legalName` and `address` are the supplier’s on every document.',
          '`gstin` is checked for its shape, its state code and its check character: 400 `invalid_gstin`. `state` is the GSTIN’s (given or not; another is 400 `invalid_state`); without a GSTIN it may be any GST state code. `seriesPrefix` (default `TIX`) starts every number: a tax invoice is `<prefix>I<yyyy>-<seq>`, a bill of supply `<prefix>B…`, a credit note `<prefix>C…`, e.g. `TIXI2627-000001`; a new financial year starts each series at 1. Changing the prefix starts new series; a GSTIN used by an event (its `supplierGstin`) has series of its own.',
          'Not tax advice: confirm your settings and each event’s tax category with your tax adviser.',
        ].join('\n\n'),
        body: SettingsBody,
        response: {
          200: answer(
            Type.Object({ success: Type.Literal(true), data: Settings }),
            'The GST settings as set.',
          ),
        },
      },
    },
    async (req) => ({
      success: true as const,
      data: await gst.putSettings(deps, keyPrincipal(req), req.body),
    }),
  );
