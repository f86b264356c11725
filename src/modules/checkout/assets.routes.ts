// The static scripts and style of the hosted page and of host pages (embed.js), with ETags.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Asset, loadCheckoutAssets } from './assets.js';

type App = Parameters<FastifyPluginAsyncTypebox>[0];

function sendAsset(req: FastifyRequest, reply: FastifyReply, asset: Asset) {
  // A versioned URL never changes; the bare one is revalidated after five minutes.
  const pinned = (req.query as { v?: string }).v === asset.version;
  reply
    .header('etag', asset.etag)
    .header('cache-control', pinned ? 'public, max-age=31536000, immutable' : 'public, max-age=300')
    .header('cross-origin-resource-policy', 'cross-origin')
    .header('x-content-type-options', 'nosniff');
  if (req.headers['if-none-match'] === asset.etag) return reply.code(304).send();
  return reply.code(200).type(asset.type).send(asset.body);
}

export function assetRoutes(app: App, files: ReturnType<typeof loadCheckoutAssets>): void {
  const { embedJs, pageJs, pageCss, planJs } = files;
  const assetRoute = (url: string, asset: Asset, summary: string, description: string) =>
    app.get(
      url,
      {
        config: { auth: { kind: 'public' } },
        schema: {
          tags: ['checkout'],
          summary,
          description,
          querystring: Type.Object({
            v: Type.Optional(
              Type.String({
                maxLength: 40,
                description: 'Content version; a matching one is cached for a year.',
              }),
            ),
          }),
          response: {
            200: {
              description: 'The file.',
              content: { [asset.type.split(';')[0]!]: { schema: { type: 'string' } } },
            },
            304: { description: 'Not modified (If-None-Match matched the ETag).', type: 'null' },
          } as never,
        },
      },
      async (req, reply) => sendAsset(req, reply, asset),
    );

  assetRoute(
    '/embed.js',
    embedJs,
    'The embed script for host pages',
    'Dependency-free. `[data-svc-event=<slug>]` gets an inline frame of the hosted page; `[data-svc-button=<slug>]` opens it in a `<dialog>` over the page, or in a separate window with `data-svc-mode="popup"`; `[data-svc-plan=<slug>]` gets an inline frame of a membership plan’s page (`/m/{slug}`) and `[data-svc-plan-button=<slug>]` opens it like a button; `data-svc-key` (a pinned `pk_test_` key) shows test events and plans against the sandbox. After a booking it dispatches `svc:registered` on `window` and on the element with `detail: { eventSlug, status }` (`confirmed`, or `pending` while awaiting approval); after someone joins a plan, `svc:joined` with `detail: { planSlug, status: "active" }`. Messages are accepted only from the service’s origin and from the frame or window it made. Served with an ETag; `?v=<version>` pins a version.',
  );
  assetRoute(
    '/embed/page.js',
    pageJs,
    'The hosted page’s own script',
    'Loaded by `/e/{slug}`; its URL carries its version.',
  );
  assetRoute(
    '/embed/plan.js',
    planJs,
    'The hosted plan page’s own script',
    'Loaded by `/m/{slug}` and its steps; its URL carries its version.',
  );
  assetRoute(
    '/embed/page.css',
    pageCss,
    'The hosted page’s style sheet',
    'Loaded by `/e/{slug}`; its URL carries its version.',
  );
}
