import type { AppServices, Client } from "../context.ts";
import { auditLog } from "./db/schema.ts";

/** Who acted: a staff member or borrower (their user id and role: a staff role, or "borrower"), or the system (a job, a provider's answer). */
export type AuditActor = { id: string; role: string } | "system";

export interface AuditEntry {
  /**
   * Who acted. Null (an addition to the shape, for the one row that needs it) when no one is known:
   * a failed staff sign-in with an e-mail address of no account, stored with no actor id or role.
   */
  by: AuditActor | null;
  /** Where the request came from (ip, user agent); none for the system. */
  client?: Client | null;
  /**
   * When: the operation's time (`services.now()`). "database" (an addition to the shape) is the
   * database's own clock, the column's default, which the sign-in, password, document and agreement
   * view, device reload and export rows have always carried; a test clock does not move it.
   */
  at: Date | "database";
  action: string;
  subject?: { type: string; id: string };
  details?: Record<string, unknown>;
}

/** The subject of most audit rows: a loan application (and the loan it becomes). */
export const applicationSubject = (id: string) => ({ type: "loan_application", id }) as const;

/**
 * Audit rows, in `services.db` (pass the caller's transaction as `{ ...services, db: tx }` or `{ db: tx }`):
 * the only writer of audit_log, one statement for them all. Every staff action writes one, and every status
 * change (lifecycle.server.ts). Staff cannot edit or delete them.
 */
export async function auditMany({ db }: Pick<AppServices, "db">, entries: readonly AuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await db.insert(auditLog).values(
    entries.map(({ by, client, at, action, subject, details }) => ({
      actorUserId: by === null || by === "system" ? null : by.id,
      actorRole: by === null ? null : by === "system" ? "system" : by.role,
      action,
      subjectType: subject?.type,
      subjectId: subject?.id,
      details,
      ip: client?.ip,
      userAgent: client?.userAgent,
      createdAt: at === "database" ? undefined : at,
    })),
  );
}

/** One audit row (`auditMany` of one). */
export async function audit(services: Pick<AppServices, "db">, entry: AuditEntry): Promise<void> {
  await auditMany(services, [entry]);
}
