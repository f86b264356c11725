import { assetOperation } from './static-asset.js';

export const getHostedPageStyle = assetOperation({
  url: '/embed/page.css',
  file: 'pageCss',
  operationId: 'getHostedPageStyle',
  summary: 'The hosted page’s style sheet',
  description: 'Loaded by `/e/{slug}`; its URL carries its version.',
  example: '/* The hosted checkout page. */\n*, *::before, *::after { box-sizing: border-box; }',
});
