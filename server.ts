// The one Node entry: `npm start` (optimised build) and `npm run dev` (Vite, hot reload).
import { ConfigError } from "./server/config.ts";
import { startServer } from "./server/main.ts";

const dev = process.env.NODE_ENV !== "production";

try {
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
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(78);
  }
  throw error;
}
