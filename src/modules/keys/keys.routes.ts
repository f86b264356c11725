// The dashboard's API key operations, one per file under routes/.
import { routes } from '../../http/operation.js';
import { createApiKey } from './routes/create-api-key.js';
import type { KeysDeps } from './routes/key.js';
import { listApiKeys } from './routes/list-api-keys.js';
import { revokeApiKey } from './routes/revoke-api-key.js';

export const keysRoutes = routes<KeysDeps>([listApiKeys, createApiKey, revokeApiKey]);
