// WEB_CONCURRENCY worker processes on PostgreSQL (server.ts): the primary forks them and shares the
// listening port among them (Node's cluster module), starts the first alone (it runs the migrations
// and the seeds) and the rest once it listens, forks a replacement for a worker that dies, and on
// SIGTERM or SIGINT asks each to finish its requests and waits for them. State lives only in the
// database, and what one process must hear of another's changes goes through its LISTEN/NOTIFY.
import cluster, { type Worker } from "node:cluster";
import type { Logger } from "pino";

/** A worker that dies this soon after it started is not forked again at once (a crash loop). */
const MIN_LIFETIME_MS = 5_000;
const RESTART_DELAY_MS = 1_000;

export async function runPrimary(workers: number, log: Logger): Promise<void> {
  let stopping = false;
  const startedAt = new Map<number, number>();

  const fork = () => {
    const worker = cluster.fork();
    startedAt.set(worker.id, Date.now());
    return worker;
  };
  const listening = (worker: Worker) =>
    new Promise<void>((resolve, reject) => {
      worker.once("listening", () => resolve());
      worker.once("exit", (code) => reject(new Error(`worker ${worker.process.pid} exited with ${code} before it listened`)));
    });

  // A replacement waiting for its delay; cancelled on shutdown, or it would start after the others
  // were told to stop and keep the server from ever exiting.
  const restarts = new Set<ReturnType<typeof setTimeout>>();
  cluster.on("exit", (worker, code, signal) => {
    if (stopping) return;
    const lived = Date.now() - (startedAt.get(worker.id) ?? 0);
    log.error({ pid: worker.process.pid, code, signal, livedMs: lived }, "worker process died; starting another");
    const timer = setTimeout(
      () => {
        restarts.delete(timer);
        if (!stopping) fork();
      },
      lived < MIN_LIFETIME_MS ? RESTART_DELAY_MS * 5 : RESTART_DELAY_MS,
    );
    restarts.add(timer);
  });

  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    for (const timer of restarts) clearTimeout(timer);
    log.info({ signal }, "shutting down: each worker finishes its in-flight requests");
    const alive = Object.values(cluster.workers ?? {}).filter((w): w is Worker => Boolean(w && !w.isDead()));
    let exitCode = 0;
    Promise.all(
      alive.map(
        (w) =>
          new Promise<void>((resolve) => {
            w.once("exit", (code) => {
              if (code) exitCode = 1;
              resolve();
            });
            w.process.kill("SIGTERM");
          }),
      ),
    ).then(() => process.exit(exitCode));
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));

  // The first migrates and seeds alone; the others find it done. The first failing to start fails
  // the server, as one process would; another failing (the database dropped as it started) is
  // replaced as a worker that died.
  const first = fork();
  try {
    await listening(first);
  } catch (error) {
    stopping = true;
    log.error({ err: error }, "the first worker process could not start");
    process.exit(1);
  }
  await Promise.all(Array.from({ length: workers - 1 }, () => listening(fork()).catch(() => {})));
  log.info({ workers, pid: process.pid }, `${workers} worker processes started`);
}
