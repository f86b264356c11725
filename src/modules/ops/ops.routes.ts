// The operations routes (probes, metrics, the OpenAPI document), one per file under routes/.
import { routes } from '../../http/operation.js';
import { getLiveness } from './routes/get-liveness.js';
import { getMetrics } from './routes/get-metrics.js';
import { getOpenApiDocument } from './routes/get-open-api-document.js';
import { getReadiness } from './routes/get-readiness.js';
import type { OpsDeps } from './routes/ops.js';

export const opsRoutes = routes<OpsDeps>([getLiveness, getReadiness, getMetrics, getOpenApiDocument]);
