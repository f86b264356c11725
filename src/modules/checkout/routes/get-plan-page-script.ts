import { assetOperation } from './static-asset.js';

export const getPlanPageScript = assetOperation({
  url: '/embed/plan.js',
  file: 'planJs',
  operationId: 'getPlanPageScript',
  summary: 'The hosted plan page’s own script',
  description: 'Loaded by `/m/{slug}` and its steps; its URL carries its version.',
  example: '/* The hosted plan page’s script. The page works without it (its steps are plain forms) … */',
});
