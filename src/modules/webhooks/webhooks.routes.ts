// The webhooks operations, one per file under routes/.
import { routes } from '../../http/operation.js';
import type { WebhooksRouteDeps } from './routes/webhooks-shared.js';
import { getWebhookConfig } from './routes/get-webhook-config.js';
import { putWebhookConfig } from './routes/put-webhook-config.js';
import { deleteWebhookConfig } from './routes/delete-webhook-config.js';
import { listWebhookDeliveries } from './routes/list-webhook-deliveries.js';

export const webhooksRoutes = routes<WebhooksRouteDeps>([
  getWebhookConfig,
  putWebhookConfig,
  deleteWebhookConfig,
  listWebhookDeliveries,
]);
