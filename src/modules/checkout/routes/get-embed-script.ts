import { assetOperation } from './static-asset.js';

export const getEmbedScript = assetOperation({
  url: '/embed.js',
  file: 'embedJs',
  operationId: 'getEmbedScript',
  summary: 'The embed script for host pages',
  description:
    'Dependency-free. `[data-svc-event=<slug>]` gets an inline frame of the hosted page; `[data-svc-button=<slug>]` opens it in a `<dialog>` over the page, or in a separate window with `data-svc-mode="popup"`; `[data-svc-plan=<slug>]` gets an inline frame of a membership plan’s page (`/m/{slug}`) and `[data-svc-plan-button=<slug>]` opens it like a button; `data-svc-key` (a pinned `pk_test_` key) shows test events and plans against the sandbox. After a booking it dispatches `svc:registered` on `window` and on the element with `detail: { eventSlug, status }` (`confirmed`, or `pending` while awaiting approval); after someone joins a plan, `svc:joined` with `detail: { planSlug, status: "active" }`. Messages are accepted only from the service’s origin and from the frame or window it made. Served with an ETag; `?v=<version>` pins a version.',
  example: '/* Ticket checkout embed. Paste into any page: <div data-svc-event="my-event"></div> … */',
});
