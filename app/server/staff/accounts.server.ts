// Staff accounts (docs/product.md "Staff accounts"): an administrator invites by a one-time link,
// changes a role, disables or enables, and re-issues a link to reset the password and the
// authenticator. Every change is audited; nobody changes or disables their own account here.
import { and, asc, eq, isNull, ne } from "drizzle-orm";
import type { AppServices, Client } from "../../context.ts";
import type { StaffRole } from "../../domain/roles.ts";
import { createStaffInvite } from "../auth/staff.server.ts";
import { audit } from "../audit.server.ts";
import { sessions, users } from "../db/schema.ts";
import type { Db } from "../db/client.ts";
import { isUuid } from "../../domain/validators/ids.ts";

type Services = Pick<AppServices, "db" | "now">;
export interface Admin {
  id: string;
  role: StaffRole;
}
export type AccountResult<T = object> = ({ ok: true } & T) | { ok: false; reason: "not_found" | "yourself" | "borrower_email" | "exists" };

export async function listStaff({ db }: Pick<AppServices, "db">) {
  const rows = await db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      role: users.role,
      disabledAt: users.disabledAt,
      passwordHash: users.passwordHash,
      totpEnrolledAt: users.totpEnrolledAt,
      createdAt: users.createdAt,
    })
    .from(users)
    .where(ne(users.role, "borrower"))
    .orderBy(asc(users.name), asc(users.email));
  return rows.map(({ passwordHash, totpEnrolledAt, ...r }) => ({
    ...r,
    role: r.role as StaffRole,
    passwordSet: Boolean(passwordHash),
    totpEnrolled: Boolean(totpEnrolledAt),
  }));
}

/** The staff account, locked for the change; null for a borrower or no one. */
async function lockStaff(tx: Db, userId: string) {
  if (!isUuid(userId)) return null;
  const [row] = await tx
    .select()
    .from(users)
    .where(and(eq(users.id, userId), ne(users.role, "borrower")))
    .for("update");
  return row ?? null;
}

/** Signs the account out everywhere (a disabled account, or a reset). */
async function endSessions(tx: Db, userId: string, at: Date, reason: string) {
  await tx
    .update(sessions)
    .set({ endedAt: at, endReason: reason })
    .where(and(eq(sessions.userId, userId), isNull(sessions.endedAt)));
}

export async function inviteStaff(
  services: Services,
  { admin, client, name, email, role }: { admin: Admin; client: Client; name: string; email: string; role: StaffRole },
): Promise<AccountResult<{ token: string; userId: string }>> {
  const normalized = email.toLowerCase();
  const [existing] = await services.db.select({ role: users.role }).from(users).where(eq(users.email, normalized));
  if (existing) return { ok: false, reason: existing.role === "borrower" ? "borrower_email" : "exists" };
  const invite = await createStaffInvite(services, { email: normalized, role, name });
  await audit(services, {
    by: admin,
    client,
    at: services.now(),
    action: "staff.invited",
    subject: { type: "user", id: invite.userId },
    details: { email: normalized, role },
  });
  return { ok: true, token: invite.token, userId: invite.userId };
}

export async function changeRole(
  services: Services,
  { admin, client, userId, role }: { admin: Admin; client: Client; userId: string; role: StaffRole },
): Promise<AccountResult> {
  if (userId === admin.id) return { ok: false, reason: "yourself" };
  return services.db.transaction(async (tx) => {
    const user = await lockStaff(tx, userId);
    if (!user) return { ok: false, reason: "not_found" } as const;
    if (user.role === role) return { ok: true } as const;
    const at = services.now();
    await tx.update(users).set({ role }).where(eq(users.id, user.id));
    await audit(
      { db: tx },
      {
        by: admin,
        client,
        at,
        action: "staff.role_changed",
        subject: { type: "user", id: user.id },
        details: { from: user.role, to: role },
      },
    );
    return { ok: true } as const;
  });
}

export async function setDisabled(
  services: Services,
  { admin, client, userId, disabled }: { admin: Admin; client: Client; userId: string; disabled: boolean },
): Promise<AccountResult> {
  if (userId === admin.id) return { ok: false, reason: "yourself" };
  return services.db.transaction(async (tx) => {
    const user = await lockStaff(tx, userId);
    if (!user) return { ok: false, reason: "not_found" } as const;
    if (Boolean(user.disabledAt) === disabled) return { ok: true } as const;
    const at = services.now();
    await tx
      .update(users)
      .set({ disabledAt: disabled ? at : null })
      .where(eq(users.id, user.id));
    if (disabled) await endSessions(tx, user.id, at, "disabled");
    await audit(
      { db: tx },
      { by: admin, client, at, action: disabled ? "staff.disabled" : "staff.enabled", subject: { type: "user", id: user.id }, details: {} },
    );
    return { ok: true } as const;
  });
}

/** A new one-time link (the old one stops working): the person sets a new password and, at the next sign-in, a new authenticator. */
export async function resetAccess(
  services: Services,
  { admin, client, userId }: { admin: Admin; client: Client; userId: string },
): Promise<AccountResult<{ token: string; email: string }>> {
  if (userId === admin.id) return { ok: false, reason: "yourself" };
  const [user] = isUuid(userId)
    ? await services.db
        .select({ id: users.id, email: users.email, role: users.role })
        .from(users)
        .where(and(eq(users.id, userId), ne(users.role, "borrower")))
    : [];
  if (!user?.email) return { ok: false, reason: "not_found" };
  const invite = await createStaffInvite(services, { email: user.email, role: user.role as StaffRole });
  const at = services.now();
  await services.db.transaction(async (tx) => {
    await endSessions(tx, user.id, at, "reset");
    await audit({ db: tx }, { by: admin, client, at, action: "staff.reset", subject: { type: "user", id: user.id }, details: {} });
  });
  return { ok: true, token: invite.token, email: user.email };
}
