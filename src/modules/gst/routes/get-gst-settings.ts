import { Type } from 'typebox';
import { FULL_ONLY, keyPrincipal } from '../../../http/auth.js';
import * as gst from '../gst.service.js';
import { Settings } from '../gst.schemas.js';
import { type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { GstRouteDeps } from './gst-shared.js';

const examples: OperationExamples = {
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

export const getGstSettings: Operation<GstRouteDeps> = (app, deps) =>
  app.get(
    '/api/v1/gst/settings',
    {
      config: { auth: FULL_ONLY, examples },
      schema: {
        operationId: 'getGstSettings',
        tags: ['gst'],
        summary: 'The account’s GST settings in the key’s mode',
        description: 'Unset settings read as `registered: false` with null fields.',
        response: {
          200: answer(Type.Object({ success: Type.Literal(true), data: Settings }), 'The GST settings.'),
        },
      },
    },
    async (req) => ({ success: true as const, data: await gst.getSettings(deps.db, keyPrincipal(req)) }),
  );
