// The one way a borrower is told anything (docs/product.md "Notifications"): `notify` writes the
// in-app notice in the caller's transaction and queues its delivery; the `notify` job sends the
// SMS, the e-mail and a push to each device, each claimed once, so a job run twice sends nothing
// twice and a slow gateway never slows the page that caused the notice.
import { and, desc, eq, gt, isNull, lte, sql } from "drizzle-orm";
import type { Language } from "../../i18n/languages.ts";
import type { AppServices } from "../../context.ts";
import { type AttachmentRef, type Channel, daytime, type NoticeData, type NotificationEvent } from "../../domain/notifications.ts";
import { noticeEmail, renderNotice } from "./render.server.ts";
import { todayIST } from "../../domain/india-date.ts";
import { OPTIONAL_MESSAGE_EVENTS } from "../../domain/privacy/consents.ts";
import { preparedQuery } from "../db/prepared.ts";
import { unreadWhere } from "./unread.server.ts";
import {
  borrowerProfiles,
  consents,
  loanAccounts,
  loanApplications,
  currentSignatureOf,
  loanSignatures,
  collectionCases,
  dunningSends,
  notificationDeliveries,
  notifications,
  pushSubscriptions,
  revisedKfs,
  signedPdfColumns,
  users,
} from "../db/schema.ts";
import { messageLink } from "../../../server/config.ts";
import type { EmailAttachment } from "../email/email.server.ts";
import { loanDocument } from "../loan-account/documents.server.ts";
import { reminderLetter } from "../collections/letter.server.ts";
import { pdfBytes } from "../storage/stored-pdf.server.ts";

type Services = Pick<AppServices, "db" | "config" | "now" | "jobs">;

/** What a notice's words need: the brand, links on the one origin of messages (server/config.ts `messageLink`), the language. */
export const noticeContext = (config: AppServices["config"], language: Language) => ({
  brand: config.public.brandName,
  link: (path: string) => messageLink(config, path),
  language,
});

/** Each borrower's language (users.language), in one query however many they are (the daily reminders tell thousands). */
async function languagesOf(db: Services["db"], userIds: readonly string[]): Promise<Map<string, Language>> {
  const ids = [...new Set(userIds)];
  const rows = await db
    .select({ id: users.id, language: users.language })
    .from(users)
    .where(sql`${users.id} = any(${sql.param(ids)}::uuid[])`);
  return new Map(rows.map((r) => [r.id, r.language]));
}

export interface NoticeInput<E extends NotificationEvent> {
  userId: string;
  event: E;
  /** Names the event itself: the same key again is the same notice, not a second one. */
  key: string;
  data: NoticeData[E];
  /** A staff notice's author. */
  sentBy?: string;
  /** The channels it goes by besides the app (a dunning step's); every channel it has words for when omitted. */
  channels?: readonly Channel[];
}

/**
 * Tells a borrower about an event: the in-app notice is written in `services.db`, the caller's
 * transaction (so it exists only if the change that caused it commits), and its delivery queued in the same transaction; reminders and
 * overdue notices made between 19:00 and 08:00 India time wait for 08:00. Returns the notice's id,
 * or null when this event was told already.
 */
export async function notify<E extends NotificationEvent>(services: Services, input: NoticeInput<E>): Promise<string | null> {
  const [row] = await notifyMany(services, [input]);
  return row ?? null;
}

/**
 * The same for many notices at once (the daily reminders): one query for the borrowers' languages,
 * one insert, one batch of jobs. Each notice is written in its borrower's language (users.language),
 * its SMS with that language's DLT template id.
 */
export async function notifyMany(services: Services, inputs: readonly NoticeInput<NotificationEvent>[]): Promise<string[]> {
  if (!inputs.length) return [];
  const at = services.now();
  const languages = await languagesOf(
    services.db,
    inputs.map((i) => i.userId),
  );
  const contexts = { en: noticeContext(services.config, "en"), hi: noticeContext(services.config, "hi") };
  const rows = inputs.map((input) => {
    const language = languages.get(input.userId) ?? "en";
    const notice = renderNotice(input.event, input.data, contexts[language]);
    return {
      userId: input.userId,
      event: input.event,
      dedupeKey: `${input.event}:${input.key}`,
      title: notice.title,
      body: notice.body,
      path: notice.path,
      sms: notice.sms,
      smsTemplateId: notice.sms ? services.config.smsTemplates[language][input.event] : null,
      language,
      attachments: notice.attachments,
      sentBy: input.sentBy ?? null,
      channels: input.channels ? [...input.channels] : null,
      availableAt: notice.daytimeOnly ? daytime(at) : at,
      createdAt: at,
    };
  });
  const inserted = await services.db
    .insert(notifications)
    .values(rows)
    .onConflictDoNothing({ target: notifications.dedupeKey })
    .returning({ id: notifications.id, availableAt: notifications.availableAt });
  await services.jobs.sendMany(
    "notify",
    inserted.map((n) => ({ data: { notificationId: n.id }, ...(n.availableAt > at ? { startAfter: n.availableAt } : {}) })),
    { db: services.db },
  );
  return inserted.map((n) => n.id);
}

type DeliveryStatus = "sent" | "gone" | "skipped";

/**
 * Claims one channel's delivery of a notice and runs `send` once: a delivery already sent, gone
 * or being sent by another run is left alone; one that failed is tried again. A process that dies
 * mid-send leaves it `sending` (never sent twice; staff see it in the borrower's notices).
 */
async function once(
  services: Pick<AppServices, "db" | "now">,
  notificationId: string,
  channel: Channel,
  target: string,
  send: () => Promise<DeliveryStatus>,
): Promise<void> {
  const at = services.now();
  const claimed = await services.db
    .insert(notificationDeliveries)
    .values({ notificationId, channel, target, status: "sending", updatedAt: at })
    .onConflictDoUpdate({
      target: [notificationDeliveries.notificationId, notificationDeliveries.channel, notificationDeliveries.target],
      set: { status: "sending", attempts: sql`${notificationDeliveries.attempts} + 1`, updatedAt: at },
      setWhere: eq(notificationDeliveries.status, "failed"),
    })
    .returning({ status: notificationDeliveries.status });
  if (!claimed.length) return;
  const key = and(
    eq(notificationDeliveries.notificationId, notificationId),
    eq(notificationDeliveries.channel, channel),
    eq(notificationDeliveries.target, target),
  );
  try {
    const status = await send();
    await services.db.update(notificationDeliveries).set({ status, error: null, updatedAt: services.now() }).where(key);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await services.db
      .update(notificationDeliveries)
      .set({ status: "failed", error: message.slice(0, 500), updatedAt: services.now() })
      .where(key);
    throw error;
  }
}

/**
 * A due reminder whose instalment is no longer owed (paid since it was queued, or the loan closed);
 * a collections reminder made at night whose case has since closed, been paused, got a promise or a
 * debit in progress (its step is then not counted as sent: it may go on a later day).
 */
async function reminderPassed(services: Pick<AppServices, "db" | "now">, notice: { event: NotificationEvent; dedupeKey: string }) {
  if (notice.event.startsWith("dunning_")) return dunningWithdrawn(services, notice.dedupeKey.split(":")[1] ?? "");
  if (notice.event !== "due_soon" && notice.event !== "due_today") return false;
  const [, applicationId, dueDate] = notice.dedupeKey.split(":");
  if (!applicationId || !dueDate) return false;
  const [still] = await services.db
    .select({ id: loanAccounts.applicationId })
    .from(loanAccounts)
    .innerJoin(loanApplications, eq(loanApplications.id, loanAccounts.applicationId))
    .where(
      and(
        eq(loanAccounts.applicationId, applicationId),
        eq(loanApplications.status, "active"),
        eq(loanAccounts.nextDueDate, dueDate),
        gt(loanAccounts.nextDuePaise, 0),
      ),
    );
  return !still;
}

/** Whether the collections reminder of dunning send `sendId` is now held (and so withdrawn: its send row removed). */
async function dunningWithdrawn({ db, now }: Pick<AppServices, "db" | "now">, sendId: string) {
  if (!/^[0-9a-f-]{36}$/.test(sendId)) return false;
  const today = todayIST(now());
  const [held] = await db
    .select({ id: dunningSends.id })
    .from(dunningSends)
    .innerJoin(collectionCases, eq(collectionCases.id, dunningSends.caseId))
    .leftJoin(loanAccounts, eq(loanAccounts.applicationId, collectionCases.applicationId))
    .where(
      and(
        eq(dunningSends.id, sendId),
        sql`(${collectionCases.closedOn} is not null or ${collectionCases.pausedAt} is not null or coalesce(${loanAccounts.dpd}, 0) <= 0
          or exists (select 1 from promises_to_pay p where p.case_id = ${collectionCases.id} and p.status = 'open' and p.due_on >= ${today})
          or exists (select 1 from mandate_debits d where d.application_id = ${collectionCases.applicationId} and d.status in ('presenting', 'in_progress')))`,
      ),
    );
  if (!held) return false;
  await db.delete(dunningSends).where(eq(dunningSends.id, sendId));
  return true;
}

/** The PDFs an e-mail carries, read when it goes. */
async function attachmentsOf(services: AppServices, userId: string, refs: readonly AttachmentRef[]): Promise<EmailAttachment[]> {
  const files: EmailAttachment[] = [];
  for (const ref of refs) {
    if (ref.kind === "signed_agreement") {
      const [s] = await services.db.select({ pdf: signedPdfColumns }).from(loanSignatures).where(currentSignatureOf(ref.applicationId));
      if (s)
        files.push({ filename: "signed-agreement.pdf", content: await pdfBytes(services.storage, s.pdf), contentType: "application/pdf" });
    } else if (ref.kind === "revised_kfs") {
      const [k] = await services.db
        .select({ bytes: revisedKfs.pdf, key: revisedKfs.pdfKey, sha256: revisedKfs.sha256 })
        .from(revisedKfs)
        .where(and(eq(revisedKfs.applicationId, ref.applicationId), isNull(revisedKfs.supersededAt)));
      if (k) files.push({ filename: "revised-kfs.pdf", content: await pdfBytes(services.storage, k), contentType: "application/pdf" });
    } else if (ref.kind === "reminder_letter") {
      const doc = await reminderLetter(services, { userId, loanNumber: ref.loanNumber, sendId: ref.sendId });
      if (doc) files.push({ filename: doc.filename, content: doc.pdf, contentType: "application/pdf" });
    } else {
      const doc = await loanDocument(services, {
        userId,
        loanNumber: ref.loanNumber,
        document: "no-dues.pdf",
        query: new URLSearchParams(),
      });
      if (doc.ok) files.push({ filename: doc.filename, content: doc.pdf, contentType: "application/pdf" });
    }
  }
  return files;
}

/**
 * The `notify` job: every channel of one notice, each once. A channel that fails is tried again
 * when the job is (the others are not sent again); then the borrower's pages hear of it.
 */
export async function deliverNotice(services: AppServices, notificationId: string): Promise<void> {
  const [n] = await services.db
    .select({
      notice: notifications,
      mobile: users.mobile,
      email: borrowerProfiles.email,
      // The borrower's latest word on reminders and updates (null: never asked).
      messages: sql<boolean | null>`(select ${consents.granted} from ${consents} where ${consents.userId} = ${notifications.userId}
        and ${consents.purpose} = 'communications' order by ${consents.createdAt} desc, ${consents.id} desc limit 1)`,
    })
    .from(notifications)
    .innerJoin(users, eq(users.id, notifications.userId))
    .leftJoin(borrowerProfiles, eq(borrowerProfiles.userId, notifications.userId))
    .where(eq(notifications.id, notificationId));
  if (!n) return;
  const { notice, mobile, email, messages } = n;
  const { language } = notice;
  if (await reminderPassed(services, notice)) {
    // Paid (or closed) between the night's run and the morning: the reminder is withdrawn, not sent.
    await services.db.delete(notifications).where(eq(notifications.id, notice.id));
    return;
  }
  const failures: unknown[] = [];
  const attempt = async (run: () => Promise<void>) => {
    try {
      await run();
    } catch (error) {
      failures.push(error);
    }
  };
  const { config } = services;
  // A dunning step names its channels; other notices go by every channel they have words for; an
  // optional one goes only in the app when the borrower said no to reminders and updates.
  const quiet = messages === false && OPTIONAL_MESSAGE_EVENTS.includes(notice.event);
  const by = (channel: Channel) => !quiet && (!notice.channels || notice.channels.includes(channel));
  const sms = by("sms") ? notice.sms : null;
  if (sms && mobile)
    await attempt(() =>
      once(services, notice.id, "sms", "", async () => {
        await services.sms.send({ to: mobile, text: sms, templateId: notice.smsTemplateId ?? undefined });
        return "sent";
      }),
    );
  if (email && by("email"))
    await attempt(() =>
      once(services, notice.id, "email", "", async () => {
        // The e-mail's frame in the language of the notice's words (the borrower's when it was made).
        const { subject, text } = noticeEmail(
          notice,
          {
            ...noticeContext(config, language),
            lenderName: config.public.lender.name,
            officer: config.public.lender.grievanceOfficer,
          },
          language,
        );
        await services.email.send({
          to: email,
          subject,
          text,
          attachments: await attachmentsOf(services, notice.userId, notice.attachments),
          headers: { "X-Notice-Id": notice.id },
        });
        return "sent";
      }),
    );
  const push = by("push") ? services.push : null;
  if (push) {
    const devices = await services.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, notice.userId));
    const payload = JSON.stringify({ title: notice.title, body: notice.body, url: notice.path, tag: notice.id });
    for (const device of devices)
      await attempt(() =>
        once(services, notice.id, "push", device.id, async () => {
          const outcome = await push.send(device, payload);
          // The push service says this browser's subscription is gone: it is dropped.
          if (outcome === "gone") await services.db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, device.id));
          else await services.db.update(pushSubscriptions).set({ lastSentAt: services.now() }).where(eq(pushSubscriptions.id, device.id));
          return outcome;
        }),
      );
  }
  await announce(services, notice.userId);
  if (failures.length) throw new AggregateError(failures, `${failures.length} channel(s) of notice ${notice.id} failed`);
}

/** Unread notices of a borrower that are out (not a reminder waiting for the morning). */
export async function unreadCount(services: Pick<AppServices, "db" | "now">, userId: string): Promise<number> {
  const [row] = await unreadQuery(services.db, { userId, at: services.now().toISOString() });
  return row?.n ?? 0;
}

const unreadQuery = preparedQuery("unread_notifications", (db, name) =>
  db
    .select({ n: sql<number>`count(*)::int` })
    .from(notifications)
    .where(unreadWhere(sql.placeholder("userId"), sql.placeholder("at")))
    .prepare(name),
);

/** Tells the borrower's open pages (every process) the unread count. */
export async function announce(services: Pick<AppServices, "db" | "now" | "realtime" | "log">, userId: string) {
  try {
    await services.realtime.publish({ type: "notifications", userId, unread: await unreadCount(services, userId) });
  } catch (error) {
    // The bell catches up on the next page.
    services.log.warn({ err: error }, "could not announce a notice");
  }
}

export const NOTICES_PER_PAGE = 30;

/** The borrower's own notices that are out, newest first, a page at a time. */
export async function listNotices(services: Pick<AppServices, "db" | "now">, userId: string, page: number) {
  const rows = await services.db
    .select({
      id: notifications.id,
      event: notifications.event,
      title: notifications.title,
      body: notifications.body,
      path: notifications.path,
      availableAt: notifications.availableAt,
      readAt: notifications.readAt,
    })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), lte(notifications.availableAt, services.now())))
    .orderBy(desc(notifications.availableAt), desc(notifications.id))
    .limit(NOTICES_PER_PAGE + 1)
    .offset(page * NOTICES_PER_PAGE);
  return { notices: rows.slice(0, NOTICES_PER_PAGE), more: rows.length > NOTICES_PER_PAGE };
}

/** Marks one of the borrower's own notices read (or all of them); returns the notice's page path. */
export async function markRead(
  services: Pick<AppServices, "db" | "now">,
  userId: string,
  which: { id: string } | "all",
): Promise<string | null> {
  const at = services.now();
  const mine = and(eq(notifications.userId, userId), lte(notifications.availableAt, at));
  if (which === "all") {
    await services.db
      .update(notifications)
      .set({ readAt: at })
      .where(and(mine, isNull(notifications.readAt)));
    return null;
  }
  const [row] = await services.db
    .update(notifications)
    .set({ readAt: sql`coalesce(${notifications.readAt}, ${at.toISOString()}::timestamptz)` })
    .where(and(mine, eq(notifications.id, which.id)))
    .returning({ path: notifications.path });
  return row?.path ?? null;
}
