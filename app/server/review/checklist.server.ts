import { and, eq } from "drizzle-orm";
import type { AppServices, Client } from "../../context.ts";
import { CHECKLIST_ITEMS, type ChecklistItem } from "../../domain/review.ts";
import { applicationSubject, audit } from "../audit.server.ts";
import { reviewChecklist } from "../db/schema.ts";
import { isMine, lockByReference, type Staff } from "./rows.server.ts";

/**
 * Store the checklist item by item (docs/product.md "Credit review and decision"): each item
 * whose state changes gets who and when, and an audit row. Only the officer who has the
 * application under review may tick.
 */
export async function saveChecklist(
  { db, now }: Pick<AppServices, "db" | "now">,
  { staff, reference, ticked, client }: { staff: Staff; reference: string; ticked: readonly ChecklistItem[]; client: Client },
): Promise<{ ok: true; changed: number } | { ok: false; reason: "not_found" | "not_yours" }> {
  const at = now();
  return db.transaction(async (tx) => {
    const a = await lockByReference(tx, reference);
    if (!a) return { ok: false, reason: "not_found" };
    if (!isMine(a, staff)) return { ok: false, reason: "not_yours" };
    const stored = new Map(
      (await tx.select().from(reviewChecklist).where(eq(reviewChecklist.applicationId, a.id))).map((r) => [r.item, r.checked]),
    );
    const want = new Set(ticked);
    let changed = 0;
    for (const item of CHECKLIST_ITEMS) {
      const checked = want.has(item);
      if ((stored.get(item) ?? false) === checked) continue;
      changed++;
      if (stored.has(item)) {
        await tx
          .update(reviewChecklist)
          .set({ checked, checkedBy: staff.id, checkedAt: at })
          .where(and(eq(reviewChecklist.applicationId, a.id), eq(reviewChecklist.item, item)));
      } else {
        await tx.insert(reviewChecklist).values({ applicationId: a.id, item, checked, checkedBy: staff.id, checkedAt: at });
      }
      await audit(
        { db: tx },
        { by: staff, client, at, action: "review.checklist", subject: applicationSubject(a.id), details: { item, checked } },
      );
    }
    return { ok: true, changed };
  });
}
