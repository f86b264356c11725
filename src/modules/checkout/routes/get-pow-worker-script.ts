import { assetOperation } from './static-asset.js';

export const getPowWorkerScript = assetOperation({
  url: '/embed/pow-worker.js',
  file: 'powWorkerJs',
  operationId: 'getPowWorkerScript',
  summary: 'The waiting room’s proof-of-work solver (a Web Worker)',
  description:
    'The hosted page starts it to solve the waiting room’s challenge (`GET /e/{slug}/queue/challenge`) off its own thread: altcha-lib’s browser solver (SHA-256 through `crypto.subtle`) as one classic script. The page posts the challenge and gets back `{ solution }`. Its URL carries its version.',
  example: '/* The waiting room’s proof of work, solved off the page’s thread … */',
});
