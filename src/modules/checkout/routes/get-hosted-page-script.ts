import { assetOperation } from './static-asset.js';

export const getHostedPageScript = assetOperation({
  url: '/embed/page.js',
  file: 'pageJs',
  operationId: 'getHostedPageScript',
  summary: 'The hosted page’s own script',
  description: 'Loaded by `/e/{slug}`; its URL carries its version.',
  example: '/* The hosted page’s form: the order summary and the button’s label as the buyer chooses … */',
});
