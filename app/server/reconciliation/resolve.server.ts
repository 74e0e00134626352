/**
 * Finance resolves a reconciliation exception (docs/product.md "The lender's books"): with a note
 * saying why, kept with the exception with who and when, audited; never changed after (the
 * database refuses it) and never deleted.
 */
import { eq } from "drizzle-orm";
import type { AppServices, Client } from "../../context.ts";
import { audit } from "../audit.server.ts";
import { reconExceptions } from "../db/schema.ts";
import type { Staff } from "../review/rows.server.ts";

export type ResolveResult = { ok: true } | { ok: false; reason: "not_found" | "already_resolved" };

export async function resolveException(
  services: Pick<AppServices, "db" | "now">,
  { staff, client, exceptionId, note }: { staff: Staff; client: Client; exceptionId: string; note: string },
): Promise<ResolveResult> {
  return services.db.transaction(async (tx) => {
    const [e] = await tx.select().from(reconExceptions).where(eq(reconExceptions.id, exceptionId)).for("update");
    if (!e) return { ok: false, reason: "not_found" };
    if (e.resolvedAt) return { ok: false, reason: "already_resolved" };
    const at = services.now();
    await tx.update(reconExceptions).set({ resolvedAt: at, resolvedBy: staff.id, resolution: note }).where(eq(reconExceptions.id, e.id));
    await audit(
      { db: tx },
      {
        by: staff,
        client,
        at,
        action: "reconciliation.exception_resolved",
        subject: { type: "recon_exception", id: e.id },
        details: { note, kind: e.kind, reason: e.reason, providerRef: e.providerRef, amountPaise: e.amountPaise },
      },
    );
    return { ok: true };
  });
}
