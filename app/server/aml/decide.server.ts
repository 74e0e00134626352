// Compliance's decisions on a possible match (docs/product.md "Sanctions screening"): cleared (a
// different person: disbursal may go on) or confirmed (the borrower frozen: no disbursal, no refund
// out; reported to FIU-IND within 24 hours), each once, with a note, audited; a confirmed match's
// report marked made with its reference. A confirmation drafts the borrower's suspicious-transaction
// report in the same transaction (docs/product.md "Suspicious-transaction reports").
import { and, eq } from "drizzle-orm";
import type { AppServices, Client } from "../../context.ts";
import { audit } from "../audit.server.ts";
import { amlMatches } from "../db/schema.ts";
import { draftFromMatch } from "./str.server.ts";

type Services = Pick<AppServices, "db" | "now" | "config">;
type Staff = { id: string; role: string };

export type Decided = { ok: true } | { ok: false; reason: "not_found" | "decided_already" | "not_confirmed" | "reported_already" };

export async function decideMatch(
  services: Services,
  {
    matchId,
    decision,
    note,
    staff,
    client,
  }: { matchId: string; decision: "cleared" | "confirmed"; note: string; staff: Staff; client: Client },
): Promise<Decided> {
  const at = services.now();
  return services.db.transaction(async (tx) => {
    const [m] = await tx.select().from(amlMatches).where(eq(amlMatches.id, matchId)).for("update");
    if (!m) return { ok: false, reason: "not_found" };
    if (m.status !== "possible") return { ok: false, reason: "decided_already" };
    await tx.update(amlMatches).set({ status: decision, decidedBy: staff.id, decidedAt: at, note }).where(eq(amlMatches.id, matchId));
    await audit(
      { db: tx },
      {
        by: staff,
        client,
        at,
        action: decision === "cleared" ? "aml.clear" : "aml.confirm",
        subject: { type: "aml_match", id: matchId },
        details: { userId: m.userId, source: m.source, ref: m.ref },
      },
    );
    if (decision === "confirmed") await draftFromMatch({ ...services, db: tx }, { matchId, by: { staff, client } });
    return { ok: true };
  });
}

/** A confirmed match reported to FIU-IND: when, by whom, with the report's reference. */
export async function markReported(
  services: Services,
  { matchId, reference, staff, client }: { matchId: string; reference: string; staff: Staff; client: Client },
): Promise<Decided> {
  const at = services.now();
  return services.db.transaction(async (tx) => {
    const [m] = await tx.select().from(amlMatches).where(eq(amlMatches.id, matchId)).for("update");
    if (!m) return { ok: false, reason: "not_found" };
    if (m.status !== "confirmed") return { ok: false, reason: "not_confirmed" };
    if (m.reportedAt) return { ok: false, reason: "reported_already" };
    await tx
      .update(amlMatches)
      .set({ reportedAt: at, reportedBy: staff.id, reportReference: reference })
      .where(and(eq(amlMatches.id, matchId), eq(amlMatches.status, "confirmed")));
    await audit(
      { db: tx },
      { by: staff, client, at, action: "aml.report", subject: { type: "aml_match", id: matchId }, details: { reference } },
    );
    return { ok: true };
  });
}
