import type { AppServices } from "../context.ts";
import { auditLog } from "./db/schema.ts";

/** One audit row: every staff action writes one (status changes write theirs in lifecycle.server.ts). Staff cannot edit or delete them. */
export async function audit(
  { db }: Pick<AppServices, "db">,
  entry: {
    actorUserId: string | null;
    actorRole: string | null;
    action: string;
    subjectType?: string;
    subjectId?: string;
    details?: Record<string, unknown>;
    ip?: string;
    userAgent?: string;
  },
) {
  await db.insert(auditLog).values(entry);
}
