// The organiser's side of publishing access: ask (with a short message) and read the answers,
// one operation per file under routes/.
import { routes } from '../../http/operation.js';
import { getPublishingAccess } from './routes/get-publishing-access.js';
import type { PublishingDeps } from './routes/publishing-request.js';
import { requestPublishingAccess } from './routes/request-publishing-access.js';

export const publishingRoutes = routes<PublishingDeps>([getPublishingAccess, requestPublishingAccess]);
