/** Entry point: configuration, runtime, app, listen, and a graceful shutdown on SIGTERM/SIGINT. */
import { ConfigError, loadConfig } from './config/config.ts';
import { openRuntime } from './runtime.ts';
import { buildApp } from './app.ts';
import { serviceLoggerOptions } from './platform/logging.ts';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }

  // What the service writes (the database, uploads, its key) holds visitors' and members' data:
  // readable by its own user only.
  process.umask(0o077);
  const runtime = await openRuntime(config);
  const app = await buildApp(runtime, {
    backgroundJobs: true,
    logger: serviceLoggerOptions(config.logLevel),
  });

  let stopping = false;
  async function shutdown(signal: string): Promise<void> {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    try {
      await app.close();
      await runtime.close();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ host: config.host, port: config.port });
  app.log.info(`Parley is serving ${config.publicUrl} (${runtime.database.dialect.name}${runtime.redis ? ' + Redis' : ''})`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
