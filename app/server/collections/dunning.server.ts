/**
 * Dunning (docs/product.md "Collections"): the rules as data with a history (each save a new
 * version, the latest in force), and the daily pass that sends each open case the step its days past
 * due have reached: one reminder at most a day to a borrower, only between 08:00 and 19:00 India
 * time (a reminder made at night waits for 08:00), never while the case is paused, a debit is in
 * progress or a promise is open and not yet due; a step's call task goes to the case's staff member
 * (the operations member with the fewest open cases when it has none). Each step is sent once.
 */
import { and, asc, desc, eq, gt, sql } from "drizzle-orm";
import type { AppServices, Client } from "../../context.ts";
import {
  PROMISES_BROKEN_BEFORE_NO_HOLD,
  DEFAULT_DUNNING_STEPS,
  DUNNING_EVENT,
  type DunningStep,
  dueStep,
  dunningHeld,
  GRIEVANCE_PATH,
  noticeChannels,
} from "../../domain/collections.ts";
import { todayIST } from "../../domain/india-date.ts";
import type { IsoDate } from "../../domain/loan-math.ts";
import { loanPath } from "../../domain/loans/servicing.ts";
import { daytime, type NotificationEvent } from "../../domain/notifications.ts";
import { applicationSubject, audit, auditMany } from "../audit.server.ts";
import { collectionCases, collectionTasks, dunningRules, dunningSends, users } from "../db/schema.ts";
import { type NoticeInput, notifyMany } from "../notifications/notify.server.ts";
import type { Staff } from "../review/rows.server.ts";
import { refreshStatistics } from "../db/statistics.server.ts";
import { syncCases } from "./cases.server.ts";

type Services = Pick<AppServices, "db" | "config" | "now" | "jobs" | "log">;

/** The rules in force: the latest version (the default steps should the table be empty). */
export async function currentDunningRules({ db }: Pick<AppServices, "db">): Promise<{ version: number; steps: DunningStep[] }> {
  const [r] = await db
    .select({ version: dunningRules.version, steps: dunningRules.steps })
    .from(dunningRules)
    .orderBy(desc(dunningRules.version))
    .limit(1);
  return r ?? { version: 0, steps: DEFAULT_DUNNING_STEPS };
}

/** Every version, newest first, with who saved it and why. */
export async function dunningHistory({ db }: Pick<AppServices, "db">) {
  return db
    .select({
      version: dunningRules.version,
      steps: dunningRules.steps,
      reason: dunningRules.reason,
      savedAt: dunningRules.savedAt,
      by: users.name,
    })
    .from(dunningRules)
    .leftJoin(users, eq(users.id, dunningRules.savedBy))
    .orderBy(desc(dunningRules.version));
}

/** An administrator saves new rules: a new version in force from now, the old ones kept; audited. */
export async function saveDunningRules(
  services: Pick<AppServices, "db" | "now">,
  { staff, client, steps, reason, basedOn }: { staff: Staff; client: Client; steps: DunningStep[]; reason: string; basedOn: number },
): Promise<{ ok: true; version: number } | { ok: false; current: number }> {
  const at = services.now();
  return services.db.transaction(async (tx) => {
    // One save at a time: a form based on a version no longer in force is refused, never saved over it.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('dunning_rules'))`);
    const current = await currentDunningRules({ db: tx });
    if (current.version !== basedOn) return { ok: false as const, current: current.version };
    const sorted = [...steps].sort((a, b) => a.dpd - b.dpd);
    const [saved] = await tx
      .insert(dunningRules)
      .values({ steps: sorted, reason, savedBy: staff.id, savedAt: at })
      .returning({ version: dunningRules.version });
    await audit(
      { db: tx },
      { by: staff, client, at, action: "dunning.rules_saved", details: { version: saved?.version, steps: sorted, reason } },
    );
    return { ok: true as const, version: saved?.version ?? 0 };
  });
}

/**
 * The active operations members with their open cases, fewest first (ties: the longest-standing
 * account): `next()` gives the least busy and counts the case it is given, so a page of cases is
 * spread over them. Null from `next()` when there is nobody.
 */
async function operationsByLoad({ db }: Pick<AppServices, "db">) {
  const staff = await db
    .select({
      id: users.id,
      open: sql<number>`(select count(*)::int from collection_cases k where k.assignee_user_id = ${users.id} and k.closed_on is null)`,
    })
    .from(users)
    .where(and(eq(users.role, "operations"), sql`${users.disabledAt} is null`))
    .orderBy(asc(users.createdAt));
  const load = staff.map((s) => ({ id: s.id, open: Number(s.open) }));
  return {
    next(): string | null {
      let least: { id: string; open: number } | undefined;
      for (const s of load) if (!least || s.open < least.open) least = s;
      if (!least) return null;
      least.open++;
      return least.id;
    },
  };
}

interface Candidate {
  caseId: string;
  applicationId: string;
  userId: string;
  loanNumber: string;
  product: "emi" | "salary_advance";
  dpd: number;
  owedPaise: number;
  assignee: string | null;
  paused: boolean;
  debitInProgress: boolean;
  promiseOpen: boolean;
  sentThatDay: boolean;
  sent: number[];
}

/**
 * The daily pass for `day` (the daily run, after servicing and autopay): cases brought up to date,
 * then each open case's due step sent. Running it twice for a day sends nothing twice.
 */
export async function runDunning(services: Services, { day }: { day: IsoDate }) {
  await refreshStatistics(services);
  await syncCases(services, { today: day });
  const rules = await currentDunningRules(services);
  const goesOut = daytime(services.now());
  const sentOn = todayIST(goesOut);
  let after = "00000000-0000-0000-0000-000000000000";
  let sent = 0;
  let tasks = 0;
  let held = 0;
  for (;;) {
    const page = await candidates(services, { after, day, sentOn });
    if (page.length === 0) break;
    const done = await services.db.transaction((tx) => sendPage({ ...services, db: tx }, { page, rules, sentOn }));
    sent += done.sent;
    tasks += done.tasks;
    held += done.held;
    after = page[page.length - 1]?.caseId ?? after;
  }
  services.log.info({ day, version: rules.version, sent, tasks, held }, "the dunning pass finished");
  return { sent, tasks, held };
}

/** A page of open cases with what the pass needs to judge them, set-based. */
async function candidates(
  { db }: Pick<AppServices, "db">,
  { after, day, sentOn }: { after: string; day: IsoDate; sentOn: IsoDate },
): Promise<Candidate[]> {
  const rows = await db
    .select({
      caseId: collectionCases.id,
      applicationId: collectionCases.applicationId,
      userId: collectionCases.userId,
      // A staff member whose account was disabled works nothing: the case is given again.
      assignee: sql<string | null>`(select u.id from users u where u.id = ${collectionCases.assigneeUserId} and u.disabled_at is null)`,
      paused: sql<boolean>`${collectionCases.pausedAt} is not null`,
      loanNumber: sql<string>`a.loan_number`,
      product: sql<"emi" | "salary_advance">`a.product`,
      dpd: sql<number>`c.dpd`,
      owedPaise: sql<number>`(c.overdue_paise + c.penal_due_paise)`,
      debitInProgress: sql<boolean>`exists (select 1 from mandate_debits d where d.application_id = ${collectionCases.applicationId} and d.status in ('presenting', 'in_progress'))`,
      // After two broken promises on the case, a promise no longer holds its reminders.
      promiseOpen: sql<boolean>`exists (select 1 from promises_to_pay p where p.case_id = ${collectionCases.id} and p.status = 'open' and p.due_on >= ${day})
        and (select count(*) from promises_to_pay p where p.case_id = ${collectionCases.id} and p.status = 'broken') < ${PROMISES_BROKEN_BEFORE_NO_HOLD}`,
      sentThatDay: sql<boolean>`exists (select 1 from dunning_sends s where s.user_id = ${collectionCases.userId} and s.sent_on = ${sentOn} and jsonb_array_length(s.channels) > 0)`,
      sent: sql<number[]>`coalesce((select array_agg(s.step_dpd) from dunning_sends s where s.case_id = ${collectionCases.id}), '{}')`,
    })
    .from(collectionCases)
    .innerJoin(sql`loan_applications a`, sql`a.id = ${collectionCases.applicationId} and a.status = 'active'`)
    .innerJoin(sql`loan_accounts c`, sql`c.application_id = ${collectionCases.applicationId} and c.dpd > 0`)
    .where(and(sql`${collectionCases.closedOn} is null`, gt(collectionCases.id, after)))
    .orderBy(asc(collectionCases.id))
    .limit(500);
  return rows.map((r) => ({ ...r, dpd: Number(r.dpd), owedPaise: Number(r.owedPaise), sent: (r.sent ?? []).map(Number) }));
}

/**
 * A page's sends, set-based: each case's step decided in order (one reminder a day to a borrower, the call task's
 * staff member), then the sends inserted together (each step once: the unique index), and for those inserted the
 * notices, the cases given, their audit rows and the call tasks, one statement each.
 */
async function sendPage(
  services: Services,
  { page, rules, sentOn }: { page: Candidate[]; rules: { version: number; steps: DunningStep[] }; sentOn: IsoDate },
) {
  const { db } = services;
  const at = services.now();
  const grievancePhone = services.config.public.lender.grievanceOfficer.phone;
  const toldToday = new Set<string>();
  const decided: { c: Candidate; step: DunningStep; messages: boolean; assignee: string | null }[] = [];
  let held = 0;
  let staff: Awaited<ReturnType<typeof operationsByLoad>> | undefined;
  for (const c of page) {
    const step = dueStep(rules.steps, c.dpd, new Set(c.sent));
    if (!step) continue;
    const messages = step.channels.length > 0;
    const why = dunningHeld({ ...c, sentThatDay: messages && (c.sentThatDay || toldToday.has(c.userId)) });
    if (why) {
      held++;
      continue;
    }
    // Who makes the call, before the step counts as sent: a call-only step with nobody to give it to waits.
    let assignee: string | null = null;
    if (step.callTask) {
      assignee = c.assignee;
      if (!assignee) {
        staff ??= await operationsByLoad(services);
        assignee = staff.next();
      }
      if (!assignee) {
        services.log.warn({ caseId: c.caseId }, "a call task was not made: there is no operations staff member to give it to");
        if (!messages) {
          held++;
          continue;
        }
      }
    }
    // Told today from here on: should another pass have sent this step meanwhile (its send not inserted
    // below), the borrower's other cases still wait for tomorrow rather than risk two reminders in a day.
    if (messages) toldToday.add(c.userId);
    decided.push({ c, step, messages, assignee });
  }
  if (decided.length === 0) return { sent: 0, tasks: 0, held };
  const inserted = await db
    .insert(dunningSends)
    .values(
      decided.map(({ c, step }) => ({
        caseId: c.caseId,
        userId: c.userId,
        stepDpd: step.dpd,
        ruleVersion: rules.version,
        channels: step.channels,
        tone: step.tone,
        sentOn,
        dpd: c.dpd,
        amountPaise: c.owedPaise,
        createdAt: at,
      })),
    )
    .onConflictDoNothing()
    .returning({ id: dunningSends.id, caseId: dunningSends.caseId });
  // A page holds each case once, so a case names its send.
  const sendOf = new Map(inserted.map((r) => [r.caseId, r.id]));
  const done = decided.flatMap((d) => {
    const sendId = sendOf.get(d.c.caseId);
    return sendId ? [{ ...d, sendId }] : [];
  });
  const notices: NoticeInput<NotificationEvent>[] = done
    .filter((d) => d.messages)
    .map(({ c, step, sendId }) => {
      const data = {
        loanNumber: c.loanNumber,
        loanPath: loanPath(c.product, c.loanNumber),
        amountPaise: c.owedPaise,
        dpd: c.dpd,
        grievancePath: GRIEVANCE_PATH,
        grievancePhone,
      };
      return {
        userId: c.userId,
        event: DUNNING_EVENT[step.tone],
        key: sendId,
        data: step.tone === "letter" ? { ...data, sendId } : data,
        channels: noticeChannels(step.channels),
      } as NoticeInput<NotificationEvent>;
    });
  const calls = done.flatMap(({ c, step, assignee }) => (step.callTask && assignee ? [{ c, step, assignee }] : []));
  const given = calls.filter(({ c, assignee }) => assignee !== c.assignee);
  if (given.length) {
    // Given by the system only to a case nobody works (staff may have given it meanwhile).
    await db.execute(sql`
      update collection_cases k set assignee_user_id = v.assignee::uuid, updated_at = ${at}
      from (values ${sql.join(
        given.map(({ c, assignee }) => sql`(${c.caseId}::uuid, ${assignee})`),
        sql`, `,
      )}) v(id, assignee)
      where k.id = v.id
        and (k.assignee_user_id is null or not exists (select 1 from users u where u.id = k.assignee_user_id and u.disabled_at is null))`);
    await auditMany(
      { db },
      given.map(({ c, assignee }) => ({
        by: "system" as const,
        at,
        action: "collections.assigned",
        subject: applicationSubject(c.applicationId),
        details: { caseId: c.caseId, assignee, why: "call task" },
      })),
    );
  }
  if (calls.length)
    await db
      .insert(collectionTasks)
      .values(
        calls.map(({ c, step, assignee }) => ({
          caseId: c.caseId,
          dueOn: sentOn,
          assigneeUserId: assignee,
          stepDpd: step.dpd,
          createdAt: at,
        })),
      )
      .onConflictDoNothing();
  const ids = await notifyMany(services, notices);
  // Each reminder's notice, for the case page: each send and its notice by their keys (a send's id read back
  // from the notice's key as text could use no index: 300 ms a page once the sends were 150,000).
  if (ids.length)
    await db.execute(sql`
      update dunning_sends s set notification_id = n.id
      from (values ${sql.join(
        notices.map((n) => sql`(${n.key}::uuid, ${`${n.event}:${n.key}`})`),
        sql`, `,
      )}) v(send_id, dedupe_key)
      join notifications n on n.dedupe_key = v.dedupe_key
      where s.id = v.send_id`);
  return { sent: notices.length, tasks: calls.length, held };
}
