// The one Node entry: `npm start` (optimised build) and `npm run dev` (Vite, hot reload). On
// PostgreSQL in production, WEB_CONCURRENCY worker processes (default: the number of cores).
import cluster from "node:cluster";
import { runPrimary } from "./server/cluster.ts";
import { ConfigError, loadConfig } from "./server/config.ts";
import { createLogger } from "./server/logger.ts";

const dev = process.env.NODE_ENV !== "production";

try {
  if (cluster.isPrimary && !dev) {
    const log = createLogger(process.env.LOG_LEVEL ?? "info");
    // Read (and, in local, write the generated secrets) once, before any worker does.
    const config = loadConfig(process.env, (message) => log.warn(message));
    if (!config.databaseUrl && Number(process.env.WEB_CONCURRENCY ?? 1) > 1) {
      log.warn("WEB_CONCURRENCY is ignored on the embedded database (one process per data directory): set DATABASE_URL");
    }
    if (config.webConcurrency > 1) {
      await runPrimary(config.webConcurrency, log);
    } else {
      await startWorker();
    }
  } else {
    await startWorker();
  }
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(78);
  }
  throw error;
}

async function startWorker() {
  // Imported here, not above: the primary process that only forks workers never loads the
  // application (it held about 250 MB for nothing).
  const { startServer } = await import("./server/main.ts");
  const running = await startServer({ dev });
  const stop = (signal: string) => {
    running.services.log.info({ signal }, "shutting down: no new connections, finishing in-flight requests");
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        running.services.log.error({ err: error }, "error during shutdown");
        process.exit(1);
      },
    );
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));
}
