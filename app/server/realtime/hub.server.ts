import { randomUUID } from "node:crypto";
import { and, count, eq, gt, inArray, isNotNull, lt, sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { Database } from "../db/client.ts";
import { presenceConnections, sessions } from "../db/schema.ts";

/** Events shared by every server process through PostgreSQL LISTEN/NOTIFY. */
export type AppEvent =
  | { type: "session_ended"; userId: string; sessionIds: string[]; reason: string; byDeviceId: string | null }
  | { type: "reload"; userId: string }
  /** A notice came out or was read: the bell shows this unread count. */
  | { type: "notifications"; userId: string; unread: number }
  | { type: "presence"; userId: string; online: boolean }
  /** The borrower's application changed status, or an officer's request to them came or was answered (a trigger, migration 0022). */
  | { type: "application_changed"; userId: string; reference: string }
  /** An administrator changed a loan product: every process reads the products again. */
  | { type: "products_changed" }
  /** An administrator changed the holiday calendar: every process reads it again. */
  | { type: "holidays_changed" }
  /**
   * What the public pages show changed (published feedback; products and risk bands also send
   * `products_changed`): sent by the database's triggers (migration 0019), whoever wrote the row.
   */
  | { type: "public_content_changed" };

/**
 * What a subscriber of this process hears: every AppEvent, and `resync` after
 * the hub's connection to the database came back (events sent meanwhile were
 * lost: read the state again).
 */
export type HubEvent = AppEvent | { type: "resync" };

/** Events after which the anonymous public pages are rendered again (server/page-cache.ts). */
export const PUBLIC_CONTENT_EVENTS: ReadonlySet<HubEvent["type"]> = new Set([
  "products_changed",
  "holidays_changed",
  "public_content_changed",
  "resync",
]);
/** Events for every process, none for a browser. */
const PROCESS_EVENTS: ReadonlySet<HubEvent["type"]> = PUBLIC_CONTENT_EVENTS;

export interface Connection {
  id: string;
  userId: string;
  sessionId: string;
  deviceId: string;
  /** Delivers an event to this browser. */
  deliver(event: AppEvent): void;
  /** Ends the stream (process shutting down). */
  close(): void;
}

export const HEARTBEAT_MS = 10_000;
/** A connection whose process has not heartbeated for this long is gone (crashed process). */
export const STALE_MS = 30_000;

export interface RealtimeHub {
  processId: string;
  publish(event: AppEvent): Promise<void>;
  /** Registers an open connection (online); the returned function closes it (offline when it was the last). */
  connect(connection: Omit<Connection, "id">): Promise<() => Promise<void>>;
  /** Every event this process hears (staff presence pages). */
  subscribe(handler: (event: HubEvent) => void): () => void;
  /** User ids online now, across all processes. */
  onlineUserIds(): Promise<string[]>;
  connectionCount(): number;
  stop(): Promise<void>;
}

export async function startRealtimeHub(
  database: Database,
  { channel, log, now }: { channel: string; log: Logger; now: () => Date },
): Promise<RealtimeHub> {
  const { db } = database;
  const processId = randomUUID();
  const connections = new Map<string, Connection>();
  const handlers = new Set<(event: HubEvent) => void>();

  const dispatch = (event: HubEvent) => {
    for (const handler of handlers) handler(event);
    if (PROCESS_EVENTS.has(event.type) || !("userId" in event)) return;
    for (const connection of connections.values()) {
      if (connection.userId !== event.userId) continue;
      if (event.type === "session_ended") {
        // Tabs of the device that signed in share its new cookie: only other devices are displaced.
        if (event.sessionIds.includes(connection.sessionId) && connection.deviceId !== event.byDeviceId) connection.deliver(event);
      } else {
        connection.deliver(event);
      }
    }
  };

  const freshSince = () => new Date(now().getTime() - STALE_MS);
  const liveCount = async (userId: string) =>
    (
      await db
        .select({ n: count() })
        .from(presenceConnections)
        .where(and(eq(presenceConnections.userId, userId), gt(presenceConnections.heartbeatAt, freshSince())))
    )[0]?.n ?? 0;

  const publish = async (event: AppEvent) => {
    // This process acts on a change it made at once (its next page shows it); the others when they hear it.
    if (PROCESS_EVENTS.has(event.type)) dispatch(event);
    await database.notify(channel, JSON.stringify(event));
  };

  const rowOf = (connection: Connection, at: Date) => ({
    id: connection.id,
    userId: connection.userId,
    sessionId: connection.sessionId,
    deviceId: connection.deviceId,
    processId,
    connectedAt: at,
    heartbeatAt: at,
  });

  /**
   * Marks this process's open streams alive, writing back any row another
   * process removed as stale while this one could not reach the database;
   * then removes the rows of processes that stopped heartbeating.
   */
  const heartbeat = async () => {
    const at = now();
    if (connections.size) {
      await db
        .insert(presenceConnections)
        .values([...connections.values()].map((c) => rowOf(c, at)))
        .onConflictDoUpdate({ target: presenceConnections.id, set: { heartbeatAt: sql`excluded.heartbeat_at` } });
    }
    const stale = await db
      .delete(presenceConnections)
      .where(lt(presenceConnections.heartbeatAt, freshSince()))
      .returning({ userId: presenceConnections.userId });
    for (const userId of new Set(stale.map((s) => s.userId))) {
      if ((await liveCount(userId)) === 0) await publish({ type: "presence", userId, online: false });
    }
  };

  /**
   * Back after the database was out of reach: events published meanwhile were
   * lost. Register the open streams again, tell the pages whose session was
   * displaced meanwhile, and tell subscribers to read the state again.
   */
  const resume = async () => {
    try {
      await heartbeat();
      const sessionIds = [...new Set([...connections.values()].map((c) => c.sessionId))];
      if (sessionIds.length) {
        const ended = await db
          .select({ id: sessions.id, userId: sessions.userId, reason: sessions.endReason })
          .from(sessions)
          .where(and(inArray(sessions.id, sessionIds), isNotNull(sessions.endedAt), eq(sessions.endReason, "displaced")));
        for (const row of ended)
          dispatch({ type: "session_ended", userId: row.userId, sessionIds: [row.id], reason: "displaced", byDeviceId: null });
      }
    } catch (error) {
      log.warn({ err: error }, "realtime resync after reconnection failed");
    }
    dispatch({ type: "resync" });
  };

  const unlisten = await database.listen(
    channel,
    (payload) => {
      try {
        dispatch(JSON.parse(payload) as AppEvent);
      } catch (error) {
        log.warn({ err: error }, "bad realtime payload");
      }
    },
    () => void resume(),
  );

  const timer = setInterval(async () => {
    try {
      await heartbeat();
    } catch (error) {
      log.warn({ err: error }, "presence heartbeat failed");
    }
  }, HEARTBEAT_MS);
  timer.unref();

  return {
    processId,
    publish,
    async connect(input) {
      const connection: Connection = { ...input, id: randomUUID() };
      await db.insert(presenceConnections).values(rowOf(connection, now()));
      connections.set(connection.id, connection);
      try {
        if ((await liveCount(connection.userId)) === 1) await publish({ type: "presence", userId: connection.userId, online: true });
      } catch (error) {
        // The stream is registered; staff pages catch up on their next read.
        log.warn({ err: error }, "could not announce a borrower online");
      }
      let closed = false;
      // Never rejects: it runs when a page goes away, with no one to answer.
      return async () => {
        if (closed) return;
        closed = true;
        connections.delete(connection.id);
        try {
          await db.delete(presenceConnections).where(eq(presenceConnections.id, connection.id));
          if ((await liveCount(connection.userId)) === 0) await publish({ type: "presence", userId: connection.userId, online: false });
        } catch (error) {
          // The row expires with the missed heartbeats; another process announces the borrower offline.
          log.warn({ err: error }, "could not record a closed realtime stream");
        }
      };
    },
    subscribe(handler) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    async onlineUserIds() {
      const rows = await db
        .selectDistinct({ userId: presenceConnections.userId })
        .from(presenceConnections)
        .where(gt(presenceConnections.heartbeatAt, freshSince()));
      return rows.map((r) => r.userId);
    },
    connectionCount: () => connections.size,
    async stop() {
      clearInterval(timer);
      const ids = [...connections.keys()];
      for (const connection of connections.values()) connection.close();
      connections.clear();
      try {
        if (ids.length) await db.delete(presenceConnections).where(inArray(presenceConnections.id, ids));
      } catch (error) {
        log.warn({ err: error }, "could not remove this process's realtime streams; they expire");
      }
      await unlisten();
    },
  };
}
