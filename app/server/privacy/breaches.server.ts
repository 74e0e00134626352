// The personal-data breach register (DPDP Act, 2023, section 8(6); DPDP Rules, 2025, rule 7):
// compliance records a breach (the borrowers it affected: every borrower, or those listed), marks
// its report to the Data Protection Board made, and sends the notice to each affected borrower. The
// notices go out through the `breach-notices` job a part at a time (never 100,000 inserts in one
// request), each borrower told once (the notice's key is the breach and the borrower), however often
// the notices are sent or the job runs again.
import { and, asc, desc, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { AppServices, Client } from "../../context.ts";
import { type BreachForm, breachDueAt } from "../../domain/privacy/breach.ts";
import { type BreachFacts, boardReport } from "../../domain/privacy/breach-drafts.ts";
import { breachNotice } from "../notifications/render.server.ts";
import { messageLink } from "../../../server/config.ts";
import { audit } from "../audit.server.ts";
import { dataBreachBorrowers, dataBreaches, users } from "../db/schema.ts";
import { notifyMany } from "../notifications/notify.server.ts";
import { randomReference } from "../reference.server.ts";

type Services = Pick<AppServices, "db" | "now" | "config" | "jobs">;
type Staff = { id: string; role: string };

/** Borrowers looked up, listed or told per part. */
const PART = 1000;

const chunks = <T>(items: readonly T[]) =>
  Array.from({ length: Math.ceil(items.length / PART) }, (_, i) => items.slice(i * PART, (i + 1) * PART));

/** Every borrower account that is not disabled: who a breach of every borrower affects. */
const everyBorrower = and(eq(users.role, "borrower"), isNull(users.disabledAt));

export type Recorded = { ok: true; reference: string } | { ok: false; reason: "unknown_mobiles"; mobiles: string[] };

/** Records a breach, with its listed borrowers (each number must be a borrower's, or nothing is stored); audited. */
export async function recordBreach(
  services: Pick<AppServices, "db" | "now">,
  { form, staff, client }: { form: BreachForm; staff: Staff; client: Client },
): Promise<Recorded> {
  const at = services.now();
  return services.db.transaction(async (tx) => {
    const listed: { id: string; mobile: string | null }[] = [];
    for (const part of chunks(form.mobiles))
      listed.push(
        ...(await tx
          .select({ id: users.id, mobile: users.mobile })
          .from(users)
          .where(and(eq(users.role, "borrower"), inArray(users.mobile, part)))),
      );
    const known = new Set(listed.map((u) => u.mobile));
    const unknown = form.mobiles.filter((m) => !known.has(m));
    if (unknown.length) return { ok: false, reason: "unknown_mobiles", mobiles: unknown };
    const reference = randomReference("BR");
    const [breach] = await tx
      .insert(dataBreaches)
      .values({
        reference,
        discoveredAt: form.discoveredAt,
        occurredAt: form.occurredAt,
        description: form.description,
        dataItems: form.dataItems,
        consequences: form.consequences,
        mitigation: form.mitigation,
        borrowerSteps: form.borrowerSteps,
        scope: form.scope,
        recordedBy: staff.id,
        recordedAt: at,
      })
      .returning({ id: dataBreaches.id });
    if (!breach) throw new Error("the breach was not stored");
    for (const part of chunks(listed))
      await tx.insert(dataBreachBorrowers).values(part.map((u) => ({ breachId: breach.id, userId: u.id })));
    await audit(
      { db: tx },
      {
        by: staff,
        client,
        at,
        action: "privacy.breach.record",
        subject: { type: "data_breach", id: breach.id },
        details: { reference, scope: form.scope, listed: listed.length, dataItems: form.dataItems },
      },
    );
    return { ok: true, reference };
  });
}

const listedCount = sql<number>`(select count(*)::int from data_breach_borrowers b where b.breach_id = ${dataBreaches.id})`;
const toldCount = sql<number>`(select count(*)::int from data_breach_borrowers b where b.breach_id = ${dataBreaches.id} and b.notified_at is not null)`;

async function borrowerCount(db: AppServices["db"]) {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(everyBorrower);
  return row?.n ?? 0;
}

/** The register: open breaches (the Board not told, or the borrowers not) first, then the newest; with how many were affected and told. */
export async function listBreaches(services: Pick<AppServices, "db">) {
  const rows = await services.db
    .select({
      reference: dataBreaches.reference,
      discoveredAt: dataBreaches.discoveredAt,
      scope: dataBreaches.scope,
      boardReportedAt: dataBreaches.boardReportedAt,
      noticesSentAt: dataBreaches.noticesSentAt,
      listed: listedCount,
      told: toldCount,
    })
    .from(dataBreaches)
    .orderBy(
      desc(sql`(${dataBreaches.boardReportedAt} is null or ${dataBreaches.noticesSentAt} is null)`),
      desc(dataBreaches.discoveredAt),
      desc(dataBreaches.recordedAt),
    );
  const everyone = rows.some((r) => r.scope === "all") ? await borrowerCount(services.db) : 0;
  return rows.map(({ listed, ...r }) => ({ ...r, affected: r.scope === "all" ? Math.max(everyone, r.told) : listed }));
}

/** One breach with who recorded, reported and notified it, and how many borrowers it affected and were told; null when there is none. */
export async function readBreach(services: Pick<AppServices, "db">, reference: string) {
  const recorder = alias(users, "recorder");
  const reporter = alias(users, "reporter");
  const sender = alias(users, "sender");
  const [row] = await services.db
    .select({
      breach: dataBreaches,
      recordedByName: recorder.name,
      boardReportedByName: reporter.name,
      noticesSentByName: sender.name,
      listed: listedCount,
      told: toldCount,
    })
    .from(dataBreaches)
    .leftJoin(recorder, eq(recorder.id, dataBreaches.recordedBy))
    .leftJoin(reporter, eq(reporter.id, dataBreaches.boardReportedBy))
    .leftJoin(sender, eq(sender.id, dataBreaches.noticesSentBy))
    .where(eq(dataBreaches.reference, reference));
  if (!row) return null;
  const { breach, listed, ...rest } = row;
  const affected = breach.scope === "all" ? Math.max(await borrowerCount(services.db), row.told) : listed;
  return { ...breach, ...rest, affected };
}

export type Done = { ok: true; again: boolean } | { ok: false; reason: "not_found" | "reported_already" };

/** The report to the Data Protection Board marked made, with the reference the Board gave it; once, audited. */
export async function markBoardReported(
  services: Pick<AppServices, "db" | "now">,
  { reference, boardReference, staff, client }: { reference: string; boardReference: string; staff: Staff; client: Client },
): Promise<Done> {
  const at = services.now();
  return services.db.transaction(async (tx) => {
    const [b] = await tx.select().from(dataBreaches).where(eq(dataBreaches.reference, reference)).for("update");
    if (!b) return { ok: false, reason: "not_found" };
    if (b.boardReportedAt) return { ok: false, reason: "reported_already" };
    await tx.update(dataBreaches).set({ boardReportedAt: at, boardReportedBy: staff.id, boardReference }).where(eq(dataBreaches.id, b.id));
    await audit(
      { db: tx },
      {
        by: staff,
        client,
        at,
        action: "privacy.breach.board_report",
        subject: { type: "data_breach", id: b.id },
        details: { reference, boardReference },
      },
    );
    return { ok: true, again: false };
  });
}

/**
 * The notices queued to every affected borrower not told yet (the first sending's time and sender
 * kept); audited. Sending again tells no one twice: it only reaches whoever was not told yet (for a
 * breach of every borrower, that includes accounts opened since).
 */
export async function sendBreachNotices(
  services: Services,
  { reference, staff, client }: { reference: string; staff: Staff; client: Client },
): Promise<Done> {
  const at = services.now();
  return services.db.transaction(async (tx) => {
    const [b] = await tx.select().from(dataBreaches).where(eq(dataBreaches.reference, reference)).for("update");
    if (!b) return { ok: false, reason: "not_found" };
    const again = b.noticesSentAt !== null;
    if (!again) await tx.update(dataBreaches).set({ noticesSentAt: at, noticesSentBy: staff.id }).where(eq(dataBreaches.id, b.id));
    await services.jobs.send("breach-notices", { breachId: b.id, after: null }, { db: tx });
    await audit(
      { db: tx },
      {
        by: staff,
        client,
        at,
        action: "privacy.breach.notify",
        subject: { type: "data_breach", id: b.id },
        details: { reference, scope: b.scope, again },
      },
    );
    return { ok: true, again };
  });
}

/** What a breach's record says, as its notice and the Board's report use it. */
export const breachFacts = (b: typeof dataBreaches.$inferSelect): BreachFacts => ({
  reference: b.reference,
  discoveredAt: b.discoveredAt,
  occurredAt: b.occurredAt,
  description: b.description,
  dataItems: b.dataItems,
  consequences: b.consequences,
  mitigation: b.mitigation,
  borrowerSteps: b.borrowerSteps,
});

/** The two drafts of a breach as read by `readBreach`: the Board's report, and the borrower's notice in English and in Hindi. */
export function breachDrafts(services: Pick<AppServices, "config" | "now">, b: NonNullable<Awaited<ReturnType<typeof readBreach>>>) {
  const { brandName: brand, lender } = services.config.public;
  const facts = breachFacts(b);
  const sender = {
    brand,
    lender: lender.name,
    contact: lender.grievanceOfficer,
    link: (path: string) => messageLink(services.config, path),
  };
  return {
    board: boardReport(facts, {
      brand,
      lender,
      scope: b.scope,
      affected: b.affected,
      told: b.told,
      noticesSentAt: b.noticesSentAt,
      now: services.now(),
      due: breachDueAt(b.discoveredAt),
    }),
    notice: { en: breachNotice(facts, sender, "en"), hi: breachNotice(facts, sender, "hi") },
  };
}

/**
 * The `breach-notices` job: the next part of the affected borrowers not told yet (from the borrower
 * `after`), each sent the notice and marked told in one transaction, which queues the part after
 * it. Run twice, or again after a crash, it tells no one twice (the notice's key, the told mark).
 */
export async function sendNoticePart(services: Services, { breachId, after }: { breachId: string; after: string | null }) {
  const [b] = await services.db.select().from(dataBreaches).where(eq(dataBreaches.id, breachId));
  if (!b?.noticesSentAt) return 0;
  const from = (column: typeof users.id | typeof dataBreachBorrowers.userId) => (after ? gt(column, after) : undefined);
  const part =
    b.scope === "listed"
      ? await services.db
          .select({ userId: dataBreachBorrowers.userId })
          .from(dataBreachBorrowers)
          .where(and(eq(dataBreachBorrowers.breachId, b.id), isNull(dataBreachBorrowers.notifiedAt), from(dataBreachBorrowers.userId)))
          .orderBy(asc(dataBreachBorrowers.userId))
          .limit(PART)
      : await services.db
          .select({ userId: users.id })
          .from(users)
          .leftJoin(dataBreachBorrowers, and(eq(dataBreachBorrowers.breachId, b.id), eq(dataBreachBorrowers.userId, users.id)))
          .where(and(everyBorrower, isNull(dataBreachBorrowers.notifiedAt), from(users.id)))
          .orderBy(asc(users.id))
          .limit(PART);
  if (!part.length) return 0;
  const lender = services.config.public.lender;
  const data = { ...breachFacts(b), lender: lender.name, contact: lender.grievanceOfficer };
  const at = services.now();
  await services.db.transaction(async (tx) => {
    await notifyMany(
      { ...services, db: tx },
      part.map(({ userId }) => ({ userId, event: "data_breach" as const, key: `${b.id}:${userId}`, data })),
    );
    await tx
      .insert(dataBreachBorrowers)
      .values(part.map(({ userId }) => ({ breachId: b.id, userId, notifiedAt: at })))
      .onConflictDoUpdate({
        target: [dataBreachBorrowers.breachId, dataBreachBorrowers.userId],
        set: { notifiedAt: sql`coalesce(${dataBreachBorrowers.notifiedAt}, excluded.notified_at)` },
      });
    if (part.length === PART)
      await services.jobs.send("breach-notices", { breachId: b.id, after: part.at(-1)?.userId ?? null }, { db: tx });
  });
  return part.length;
}
