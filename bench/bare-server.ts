/**
 * The baseline for `npm run bench`: a bare Fastify 5 server with one small JSON route, started by
 * the bench as a child process. Reads HOST and PORT from the environment.
 */
import Fastify from 'fastify';

const host = process.env.HOST ?? '127.0.0.1';
const port = Number(process.env.PORT ?? 3001);

const app = Fastify({ logger: false });

app.get('/bare', async () => ({ id: 'b7a1c2d3-0000-4000-8000-000000000001', name: 'Support bot', ok: true }));

async function shutdown(): Promise<void> {
  await app.close();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());

await app.listen({ host, port });
