// The PostgreSQL connection pool Drizzle runs on, with one repair. Drizzle 0.45's node-postgres
// `transaction()` takes a client from the pool and sends BEGIN before its try/finally: when BEGIN
// fails (the connection dropped while the client sat idle), the client is never given back. The
// pool then counts it as busy for the life of the process: it serves with one connection fewer
// each time, until none is left, and `end()` waits for it forever (a shutdown that never ends).
// Reported upstream as drizzle-team/drizzle-orm#6241 (open); drop this when a release fixes it.
import pg from "pg";

/** A client's first query, when it is a transaction's BEGIN: a failure gives the client back, as broken. */
function releaseOnFailedBegin(client: pg.PoolClient): pg.PoolClient {
  const query = client.query;
  client.query = function (this: pg.PoolClient, ...args: unknown[]) {
    client.query = query;
    const result = (query as (...a: unknown[]) => unknown).apply(this, args);
    const first = args[0] as string | { text?: unknown } | undefined;
    const text = typeof first === "string" ? first : typeof first?.text === "string" ? first.text : "";
    if (/^\s*begin\b/i.test(text) && result instanceof Promise) {
      return result.catch((error: unknown) => {
        client.release(error instanceof Error ? error : new Error(String(error)));
        throw error;
      });
    }
    return result;
  } as typeof client.query;
  return client;
}

export class TransactionSafePool extends pg.Pool {
  override connect(): Promise<pg.PoolClient>;
  override connect(callback: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void): void;
  override connect(
    callback?: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void,
  ): Promise<pg.PoolClient> | void {
    // The callback form is the pool's own (pool.query), which releases its client itself.
    if (callback) return super.connect(callback);
    return super.connect().then(releaseOnFailedBegin);
  }
}
