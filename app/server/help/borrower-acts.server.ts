// What a borrower does on their own ticket (docs/product.md "Help and grievances"): reply, reopen
// a resolved one within 7 days of its answer, or say they do not accept the answer. The ticket is
// found with its owner's id: another borrower's reference finds nothing.
import { and, eq } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import { canReopen } from "../../domain/help.ts";
import { ticketMessages, tickets } from "../db/schema.ts";
import { backWithSupport, lockTicket } from "./rows.server.ts";

export type BorrowerActResult =
  { ok: true; message: string } | { ok: false; reason: "not_found" | "closed" | "resolved" | "not_resolved" | "too_late" };

/** The borrower replies, reopens a resolved ticket (within 7 days), or does not accept the answer. */
export async function borrowerActs(
  services: Pick<AppServices, "db" | "now">,
  {
    userId,
    reference,
    act,
  }: {
    userId: string;
    reference: string;
    act: { intent: "reply" | "reopen"; once: string; message: string } | { intent: "not_accepted" };
  },
): Promise<BorrowerActResult> {
  const at = services.now();
  return services.db.transaction(async (tx) => {
    const t = await lockTicket(tx, and(eq(tickets.reference, reference), eq(tickets.userId, userId)));
    if (!t) return { ok: false, reason: "not_found" } as const;
    if (act.intent === "not_accepted") {
      if (t.status !== "resolved" && t.status !== "closed") return { ok: false, reason: "not_resolved" } as const;
      if (!t.notAcceptedAt) {
        await tx.update(tickets).set({ notAcceptedAt: at, updatedAt: at }).where(eq(tickets.id, t.id));
        await tx
          .insert(ticketMessages)
          .values({ ticketId: t.id, author: "system", body: "You said you do not accept this answer.", createdAt: at });
      }
      return { ok: true, message: "Noted. Below is how to take it to the RBI Ombudsman." } as const;
    }
    const [again] = await tx
      .select({ id: ticketMessages.id })
      .from(ticketMessages)
      .where(and(eq(ticketMessages.onceKey, act.once), eq(ticketMessages.ticketId, t.id)));
    // The same form sent twice (a double tap, a retry after a lost answer): the first did it.
    if (again)
      return { ok: true, message: act.intent === "reopen" ? `Ticket ${t.reference} is open again.` : "Your reply is sent." } as const;
    if (t.status === "closed") return { ok: false, reason: "closed" } as const;
    if (act.intent === "reopen" && !canReopen(t, at))
      return { ok: false, reason: t.status === "resolved" ? "too_late" : "not_resolved" } as const;
    if (act.intent === "reply" && t.status === "resolved") return { ok: false, reason: "resolved" } as const;
    await tx.insert(ticketMessages).values({ ticketId: t.id, author: "borrower", body: act.message, onceKey: act.once, createdAt: at });
    if (act.intent === "reopen") {
      await tx
        .update(tickets)
        .set({ status: backWithSupport(t), resolvedAt: null, notAcceptedAt: null, reopenedCount: t.reopenedCount + 1, updatedAt: at })
        .where(eq(tickets.id, t.id));
      return { ok: true, message: `Ticket ${t.reference} is open again.` } as const;
    }
    const status = t.status === "waiting" ? backWithSupport(t) : t.status;
    await tx.update(tickets).set({ status, updatedAt: at }).where(eq(tickets.id, t.id));
    return { ok: true, message: "Your reply is sent." } as const;
  });
}
