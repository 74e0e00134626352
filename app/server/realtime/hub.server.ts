import { randomUUID } from "node:crypto";
import { and, count, eq, gt, inArray, lt } from "drizzle-orm";
import type { Logger } from "pino";
import type { Database } from "../db/client.ts";
import { presenceConnections } from "../db/schema.ts";

/** Events shared by every server process through PostgreSQL LISTEN/NOTIFY. */
export type AppEvent =
  | { type: "session_ended"; userId: string; sessionIds: string[]; reason: string; byDeviceId: string | null }
  | { type: "reload"; userId: string }
  | { type: "presence"; userId: string; online: boolean };

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
  subscribe(handler: (event: AppEvent) => void): () => void;
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
  const handlers = new Set<(event: AppEvent) => void>();

  const dispatch = (event: AppEvent) => {
    for (const handler of handlers) handler(event);
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

  const unlisten = await database.listen(channel, (payload) => {
    try {
      dispatch(JSON.parse(payload) as AppEvent);
    } catch (error) {
      log.warn({ err: error }, "bad realtime payload");
    }
  });

  const freshSince = () => new Date(now().getTime() - STALE_MS);
  const liveCount = async (userId: string) =>
    (
      await db
        .select({ n: count() })
        .from(presenceConnections)
        .where(and(eq(presenceConnections.userId, userId), gt(presenceConnections.heartbeatAt, freshSince())))
    )[0]?.n ?? 0;

  const publish = async (event: AppEvent) => {
    await database.notify(channel, JSON.stringify(event));
  };

  const timer = setInterval(async () => {
    try {
      if (connections.size) {
        await db
          .update(presenceConnections)
          .set({ heartbeatAt: now() })
          .where(eq(presenceConnections.processId, processId));
      }
      // Connections of processes that stopped heartbeating are gone.
      const stale = await db
        .delete(presenceConnections)
        .where(lt(presenceConnections.heartbeatAt, freshSince()))
        .returning({ userId: presenceConnections.userId });
      for (const userId of new Set(stale.map((s) => s.userId))) {
        if ((await liveCount(userId)) === 0) await publish({ type: "presence", userId, online: false });
      }
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
      connections.set(connection.id, connection);
      const at = now();
      await db.insert(presenceConnections).values({
        id: connection.id,
        userId: connection.userId,
        sessionId: connection.sessionId,
        deviceId: connection.deviceId,
        processId,
        connectedAt: at,
        heartbeatAt: at,
      });
      if ((await liveCount(connection.userId)) === 1) await publish({ type: "presence", userId: connection.userId, online: true });
      let closed = false;
      return async () => {
        if (closed) return;
        closed = true;
        connections.delete(connection.id);
        await db.delete(presenceConnections).where(eq(presenceConnections.id, connection.id));
        if ((await liveCount(connection.userId)) === 0) await publish({ type: "presence", userId: connection.userId, online: false });
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
      if (ids.length) await db.delete(presenceConnections).where(inArray(presenceConnections.id, ids));
      await unlisten();
    },
  };
}
