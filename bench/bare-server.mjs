// The ceiling: a bare Fastify route answering a constant JSON.
import Fastify from 'fastify';
const app = Fastify({ logger: false });
app.get('/', async () => ({ success: true, data: { ok: true } }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.stdout.write('ready\n');
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
