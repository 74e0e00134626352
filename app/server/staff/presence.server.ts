import { and, desc, eq, gt, inArray } from "drizzle-orm";
import type { AppServices, Client } from "../../context.ts";
import { isUuid } from "../../domain/validators/ids.ts";
import { audit } from "../audit.server.ts";
import type { User } from "../auth/session.server.ts";
import { borrowerProfiles, presenceConnections, users } from "../db/schema.ts";
import { STALE_MS } from "../realtime/hub.server.ts";

/** Borrowers with a page open now, across every process: their name (from the profile), since when, and in how many tabs. */
export async function onlineBorrowers({ db, realtime, now }: Pick<AppServices, "db" | "realtime" | "now">) {
  const ids = await realtime.onlineUserIds();
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: users.id, mobile: users.mobile, name: borrowerProfiles.fullName, connectedAt: presenceConnections.connectedAt })
    .from(users)
    .innerJoin(presenceConnections, eq(presenceConnections.userId, users.id))
    .leftJoin(borrowerProfiles, eq(borrowerProfiles.userId, users.id))
    .where(
      and(inArray(users.id, ids), eq(users.role, "borrower"), gt(presenceConnections.heartbeatAt, new Date(now().getTime() - STALE_MS))),
    )
    .orderBy(desc(presenceConnections.connectedAt));
  const seen = new Map<string, (typeof rows)[number] & { tabs: number }>();
  for (const row of rows) {
    const existing = seen.get(row.id);
    if (existing) existing.tabs += 1;
    else seen.set(row.id, { ...row, tabs: 1 });
  }
  return [...seen.values()];
}

export type DeviceReloadResult = { ok: true; mobile: string | null } | { ok: false; reason: "no_such_borrower" };

/** Device reload (staff): the borrower's open pages renew their session and reload; audited. */
export async function reloadBorrowerDevice(
  services: Pick<AppServices, "db" | "realtime">,
  { staff, borrowerId, client }: { staff: Pick<User, "id" | "role">; borrowerId: string; client: Client },
): Promise<DeviceReloadResult> {
  if (!isUuid(borrowerId)) return { ok: false, reason: "no_such_borrower" };
  const [borrower] = await services.db
    .select({ id: users.id, mobile: users.mobile })
    .from(users)
    .where(and(eq(users.id, borrowerId), eq(users.role, "borrower")));
  if (!borrower) return { ok: false, reason: "no_such_borrower" };
  await services.realtime.publish({ type: "reload", userId: borrower.id });
  await audit(services, {
    by: staff,
    client,
    at: "database",
    action: "presence.device_reload",
    subject: { type: "user", id: borrower.id },
  });
  return { ok: true, mobile: borrower.mobile };
}
