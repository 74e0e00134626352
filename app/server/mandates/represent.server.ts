/**
 * Operations present a bounced debit again (docs/product.md "Autopay"), at the borrower's request:
 * a new attempt for what is then due of the instalments due (at most the mandate's maximum), its
 * pre-debit notice now, presented on the first day the notice is 24 hours old (e-NACH: a working
 * day). Refused while another debit of that instalment waits or is in progress, or when the loan or
 * the mandate is no longer active. Audited.
 */
import { and, eq, inArray, max } from "drizzle-orm";
import type { AppServices, Client } from "../../context.ts";
import { addDays } from "../../domain/loan-math.ts";
import { longDate, todayIST } from "../../domain/india-date.ts";
import { debitAmount, presentationDate } from "../../domain/loans/autopay.ts";
import { loanPath, replay } from "../../domain/loans/servicing.ts";
import { formatRupees } from "../../domain/money.ts";
import { daytime } from "../../domain/notifications.ts";
import { type StaffResult } from "../../domain/loans/staff-servicing.ts";
import { applicationSubject, audit } from "../audit.server.ts";
import { mandateDebits, mandates } from "../db/schema.ts";
import { businessToday, ledgerOf, lockLoan, termsOf } from "../loan-account/account.server.ts";
import { notify } from "../notifications/notify.server.ts";
import type { Staff } from "../review/rows.server.ts";
import { dueBy, lockDebit, newDebitReference } from "./debit-rows.server.ts";

type Services = Pick<AppServices, "db" | "config" | "now" | "jobs">;

export async function representDebit(
  services: Services,
  { staff, client, loanNumber, debitId }: { staff: Staff; client: Client; loanNumber: string; debitId: string },
): Promise<StaffResult> {
  const at = services.now();
  return services.db.transaction(async (tx): Promise<StaffResult> => {
    const a = await lockLoan({ db: tx }, loanNumber);
    if (!a) return { ok: false, reason: "not_found" };
    const d = await lockDebit({ db: tx }, debitId);
    if (!d || d.applicationId !== a.id) return { ok: false, reason: "not_found" };
    if (d.status !== "bounced") return { ok: false, reason: "debit_not_bounced" };
    if (a.status !== "active") return { ok: false, reason: "not_open" };
    const [m] = await tx
      .select()
      .from(mandates)
      .where(and(eq(mandates.applicationId, a.id), eq(mandates.status, "active")));
    if (!m) return { ok: false, reason: "no_active_mandate" };
    const [waiting] = await tx
      .select({ id: mandateDebits.id })
      .from(mandateDebits)
      .where(
        and(
          eq(mandateDebits.applicationId, a.id),
          eq(mandateDebits.seq, d.seq),
          inArray(mandateDebits.status, ["notified", "presenting", "in_progress"]),
        ),
      );
    if (waiting) return { ok: false, reason: "debit_waiting" };
    const found = await termsOf({ ...services, db: tx }, a.id);
    if (!found) return { ok: false, reason: "not_found" };
    const today = businessToday(services);
    const state = replay(found.terms, (await ledgerOf({ db: tx }, a.id)).events, today);
    const noticePaise = debitAmount({ duePaise: dueBy(state, today), noticePaise: m.maxAmountPaise, maxAmountPaise: m.maxAmountPaise });
    if (noticePaise === 0) return { ok: false, reason: "nothing_due" };
    // The notice goes out now (or at 08:00); the debit on the first day it is 24 hours old.
    const noticeAt = daytime(at);
    const presentOn = presentationDate(
      addDays(todayIST(new Date(noticeAt.getTime() + 24 * 3_600_000)), 1),
      m.kind,
      services.config.holidays,
    );
    const [last] = await tx
      .select({ n: max(mandateDebits.attempt) })
      .from(mandateDebits)
      .where(and(eq(mandateDebits.applicationId, a.id), eq(mandateDebits.seq, d.seq)));
    const [stored] = await tx
      .insert(mandateDebits)
      .values({
        reference: newDebitReference(),
        mandateId: m.id,
        applicationId: a.id,
        userId: a.userId,
        seq: d.seq,
        attempt: (last?.n ?? d.attempt) + 1,
        dueDate: d.dueDate,
        presentOn,
        status: "notified",
        noticePaise,
        noticeAt,
        createdAt: at,
        updatedAt: at,
      })
      .returning();
    if (!stored) throw new Error("the debit was not stored");
    await audit(
      { db: tx },
      {
        by: staff,
        client,
        at,
        action: "mandate_debit.represented",
        subject: applicationSubject(a.id),
        details: { reference: stored.reference, bounced: d.reference, seq: d.seq, amountPaise: noticePaise, presentOn },
      },
    );
    if (a.loanNumber)
      await notify(
        { ...services, db: tx },
        {
          userId: a.userId,
          event: "autopay_notice",
          key: `${a.id}:${d.seq}:${stored.attempt}`,
          data: {
            loanNumber: a.loanNumber,
            loanPath: loanPath(a.product, a.loanNumber),
            amountPaise: noticePaise,
            presentOn,
            mandate: m.kind,
            accountMasked: m.accountMasked,
          },
        },
      );
    return {
      ok: true,
      message: `${formatRupees(noticePaise)} will be presented again on ${longDate(presentOn)}; the borrower is told now.`,
    };
  });
}
