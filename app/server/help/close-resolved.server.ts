// Housekeeping for help tickets (docs/product.md "Help and grievances"): a resolved ticket may be
// reopened within 7 days of its answer, and is closed after that.
import { and, eq, lt } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import { reopenEndedIfResolvedBefore } from "../../domain/help.ts";
import { tickets } from "../db/schema.ts";

/** Resolved tickets not reopened within 7 days are closed; returns how many. Running it twice closes nothing more. */
export async function closeResolvedTickets({ db, now }: Pick<AppServices, "db" | "now">) {
  const at = now();
  const closed = await db
    .update(tickets)
    .set({ status: "closed", closedAt: at, updatedAt: at })
    .where(and(eq(tickets.status, "resolved"), lt(tickets.resolvedAt, reopenEndedIfResolvedBefore(at))))
    .returning({ id: tickets.id });
  return closed.length;
}
