// The compliance queue of data-rights requests (docs/product.md "Data rights"): the open ones by
// their 30-day answer date (late first), the latest answered; each answered once, audited, the
// borrower told; an erasure carried out in the answer's transaction.
import { and, asc, desc, eq, ne, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { AppServices, Client } from "../../context.ts";
import type { Language } from "../../i18n/languages.ts";
import { renderNotice } from "../notifications/render.server.ts";
import { messageLink } from "../../../server/config.ts";
import { audit } from "../audit.server.ts";
import { borrowerProfiles, dataRequests, users } from "../db/schema.ts";
import { notify } from "../notifications/notify.server.ts";
import { eraseBorrower, removeFiles } from "./erase.server.ts";
import { PRIVACY_PATH } from "./rights.server.ts";

type Services = Pick<AppServices, "db" | "now" | "config" | "jobs" | "storage" | "sms" | "log">;
type Staff = { id: string; role: string };

const answeredBy = alias(users, "answered_by");
const SHOWN = 200;

function requestRows(services: Pick<AppServices, "db">) {
  return services.db
    .select({
      id: dataRequests.id,
      reference: dataRequests.reference,
      userId: dataRequests.userId,
      borrower: borrowerProfiles.fullName,
      mobile: users.mobile,
      kind: dataRequests.kind,
      details: dataRequests.details,
      status: dataRequests.status,
      receivedAt: dataRequests.receivedAt,
      dueOn: dataRequests.dueOn,
      answeredAt: dataRequests.answeredAt,
      answeredBy: answeredBy.name,
      answer: dataRequests.answer,
    })
    .from(dataRequests)
    .innerJoin(users, eq(users.id, dataRequests.userId))
    .leftJoin(borrowerProfiles, eq(borrowerProfiles.userId, dataRequests.userId))
    .leftJoin(answeredBy, eq(answeredBy.id, dataRequests.answeredBy));
}

/** The open corrections and erasures (oldest due first), the latest answered ones, and the counts. */
export async function requestQueue(services: Pick<AppServices, "db">) {
  const [open, answered, [counts]] = await Promise.all([
    requestRows(services)
      .where(eq(dataRequests.status, "open"))
      .orderBy(asc(dataRequests.dueOn), asc(dataRequests.receivedAt))
      .limit(SHOWN),
    requestRows(services)
      .where(and(ne(dataRequests.status, "open"), ne(dataRequests.kind, "access")))
      .orderBy(desc(dataRequests.answeredAt))
      .limit(50),
    services.db
      .select({
        open: sql<number>`count(*) filter (where ${dataRequests.status} = 'open')::int`,
        downloads: sql<number>`count(*) filter (where ${dataRequests.kind} = 'access')::int`,
      })
      .from(dataRequests),
  ]);
  return { open, answered, counts: { open: counts?.open ?? 0, downloads: counts?.downloads ?? 0 } };
}

export type Answered = { ok: true; erased?: { rows: number; files: number } } | { ok: false; reason: "not_found" | "answered_already" };

/**
 * Compliance answers a request: done or refused, with the words the borrower reads. A done erasure
 * erases, in the same transaction, what the plan as of now allows (the loans may have changed since
 * it was asked); the borrower is told (by the app, SMS and e-mail, while they still have them).
 */
export async function answerRequest(
  services: Services,
  {
    reference,
    outcome,
    answer,
    staff,
    client,
  }: { reference: string; outcome: "done" | "refused"; answer: string; staff: Staff; client: Client },
): Promise<Answered> {
  const at = services.now();
  const result = await services.db.transaction(async (tx) => {
    const [r] = await tx.select().from(dataRequests).where(eq(dataRequests.reference, reference)).for("update");
    if (!r || r.kind === "access") return { ok: false as const, reason: "not_found" as const };
    if (r.status !== "open") return { ok: false as const, reason: "answered_already" as const };
    await tx.update(dataRequests).set({ status: outcome, answer, answeredAt: at, answeredBy: staff.id }).where(eq(dataRequests.id, r.id));
    const erased =
      r.kind === "erasure" && outcome === "done"
        ? await eraseBorrower({ ...services, db: tx }, { userId: r.userId, requestId: r.id })
        : undefined;
    // Told after the erasure, so the notice stays in the app with what is kept; an account erased whole is told by one last SMS.
    const data = { reference: r.reference, done: outcome === "done", path: PRIVACY_PATH };
    if (!erased?.accountErased)
      await notify({ ...services, db: tx }, { userId: r.userId, event: "data_request_answered", key: r.reference, data });
    await audit(
      { db: tx },
      {
        by: staff,
        client,
        at,
        action: "privacy.request.answer",
        subject: { type: "data_request", id: r.id },
        details: { reference: r.reference, kind: r.kind, outcome, userId: r.userId, ...(erased ? { erased: erased.summary } : {}) },
      },
    );
    return { ok: true as const, erased };
  });
  if (result.ok && result.erased) {
    const { erased } = result;
    // Stored files go after the rows' commit: a rolled-back erasure leaves every file in place.
    await removeFiles(services, erased.files);
    if (erased.accountErased && erased.mobile) await lastWord(services, erased.mobile, erased.language, reference);
    return { ok: true, erased: { rows: erased.rows, files: erased.files.length } };
  }
  return result.ok ? { ok: true } : result;
}

/** The answer's SMS to a number that is no longer kept: sent once, now, with the notice's own words (nothing is stored). */
async function lastWord(services: Pick<AppServices, "config" | "sms" | "log">, mobile: string, language: Language, reference: string) {
  const notice = renderNotice(
    "data_request_answered",
    { reference, done: true, path: "/privacy-policy" },
    { brand: services.config.public.brandName, link: (path) => messageLink(services.config, path), language },
  );
  if (!notice.sms) return;
  try {
    await services.sms.send({ to: mobile, text: notice.sms, templateId: services.config.smsTemplates[language].data_request_answered });
  } catch (error) {
    services.log.warn({ err: error }, "the erasure's last SMS was not sent");
  }
}
