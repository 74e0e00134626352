// Notifications for `npm run bench` (BENCH_ONLY=notifications for this part alone), on PostgreSQL in a
// schema of its own: BENCH_REMINDERS (10,000) active loans due in 3 days, each borrower with a mobile
// and an e-mail; the day's reminders queued as the daily run queues them (queueReminders), then sent by
// the `notify` job through the stand-ins (the SMS outbox file and the e-mail outbox folder). Measured:
// the time to queue, the time until every reminder's SMS and e-mail are out, and the rate. Checked:
// one notice per loan, one SMS and one e-mail per notice (none sent twice), queueing again adds none,
// and every job run again by hand sends nothing.
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { type SQL, sql } from "drizzle-orm";
import { addDays } from "../app/domain/loan-math.ts";
import { indiaTime, todayIST } from "../app/domain/india-date.ts";

const REMINDERS = Number(process.env.BENCH_REMINDERS ?? 10_000);
process.env.TEST_DATABASE_URL ??= process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const { startTestServer } = await import("../tests/helpers/server.ts");
const { queueReminders } = await import("../app/server/servicing/daily.server.ts");
const { deliverNotice } = await import("../app/server/notifications/notify.server.ts");
const { emailOutboxDir } = await import("../app/server/email/email.server.ts");

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface NotificationFigures {
  reminders: number;
  seedSeconds: number;
  queueSeconds: number;
  sendSeconds: number;
  perSecond: number;
  notices: number;
  smsLines: number;
  distinctSms: number;
  emails: number;
  distinctEmails: number;
  deliveries: Record<string, number>;
  queuedAgain: number;
  resentSms: number;
  resentEmails: number;
}

export async function notificationBench(): Promise<NotificationFigures> {
  // Yesterday at 10:00 India time: inside the 08:00–19:00 window, and never ahead of the database's
  // clock, by which the queue starts a job (a reminder made now goes out now).
  const at = indiaTime(addDays(todayIST(new Date()), -1), "10:00");
  const app = await startTestServer({ APP_ENV: "local", LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "silent" }, { now: () => at });
  try {
    const db = app.services.db;
    const rows = async <T>(query: SQL) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;
    const one = async (query: SQL) => Number((await rows<{ n: number | string }>(query))[0]?.n ?? 0);
    const today = todayIST(at);
    const due = addDays(today, 3);
    const salt = sql.raw(`'${randomBytes(6).toString("hex")}'`);
    const seeded = performance.now();
    await db.execute(sql`
      insert into users (mobile, mobile_verified_at, role, created_at)
      select (6100000000 + n)::text, now(), 'borrower', now() from generate_series(1, ${REMINDERS}::int) n`);
    await db.execute(sql`
      insert into borrower_profiles (user_id, full_name, date_of_birth, email, pan_enc, pan_hmac, pan_masked)
      select u.id, 'Bench Borrower', '1990-01-01', 'b' || u.mobile || '@example.com', 'x', ${salt} || u.mobile, 'XXXXX0000X'
      from users u where u.mobile like '61%'`);
    await db.execute(sql`
      insert into loan_applications (reference, user_id, product, status, amount_paise, tenure_months, loan_number, disbursal_date, disbursed_at, updated_at, created_at)
      select substr(md5(${salt} || u.mobile), 1, 26), u.id, 'emi', 'active', 10000000, 12, 'SL' || substr(u.mobile, 3), ${addDays(today, -28)}, now(), now(), now()
      from users u where u.mobile like '61%'`);
    await db.execute(sql`
      insert into loan_accounts (application_id, kind, principal_paise, rate_bps, penal_paise, cooling_off_days, disbursal_date, as_of,
        outstanding_principal_paise, overdue_paise, penal_due_paise, dpd, next_due_date, next_due_paise, advance_paise, refund_due_paise, updated_at)
      select id, 'emi', 10000000, 1800, 50000, 3, disbursal_date, ${today}, 10000000, 0, 0, 0, ${due}, 916800, 0, 0, now()
      from loan_applications where status = 'active'`);
    await db.execute(sql`analyze`);
    const seedSeconds = (performance.now() - seeded) / 1000;

    const started = performance.now();
    const queued = await queueReminders(app.services, today);
    const queueSeconds = (performance.now() - started) / 1000;
    const outbox = path.join(app.dataDir, "outbox", "sms.jsonl");
    const smsLines = () => (existsSync(outbox) ? readFileSync(outbox, "utf8").split("\n").filter(Boolean) : []);
    const emailFiles = () =>
      existsSync(emailOutboxDir(app.dataDir)) ? readdirSync(emailOutboxDir(app.dataDir)).filter((f) => f.endsWith(".eml")) : [];
    // Every reminder out: its SMS and its e-mail delivered.
    for (let waited = 0; ; waited += 250) {
      const sent = await one(sql`select count(*)::int as n from notification_deliveries where status = 'sent'`);
      if (sent >= queued * 2) break;
      if (waited > 20 * 60_000) throw new Error(`only ${sent} of ${queued * 2} deliveries after 20 minutes`);
      await sleep(250);
    }
    const sendSeconds = (performance.now() - started) / 1000;

    const sms = smsLines();
    const emails = emailFiles();
    const emailIds = emails.map(
      (f) => /^X-Notice-ID: (.+?)\r?$/im.exec(readFileSync(path.join(emailOutboxDir(app.dataDir), f), "utf8"))?.[1],
    );
    const deliveries = Object.fromEntries(
      (
        await rows<{ k: string; n: number }>(
          sql`select channel || ':' || status as k, count(*)::int as n from notification_deliveries group by 1`,
        )
      ).map((r) => [r.k, r.n]),
    );
    // Again: the day's reminders queued a second time, and every notice's job run again by hand.
    const queuedAgain = await queueReminders(app.services, today);
    const ids = await rows<{ id: string }>(sql`select id from notifications`);
    for (let i = 0; i < ids.length; i += 50) await Promise.all(ids.slice(i, i + 50).map((r) => deliverNotice(app.services, r.id)));
    await sleep(1000);
    return {
      reminders: REMINDERS,
      seedSeconds,
      queueSeconds,
      sendSeconds,
      perSecond: queued / sendSeconds,
      notices: await one(sql`select count(*)::int as n from notifications where event = 'due_soon'`),
      smsLines: sms.length,
      distinctSms: new Set(sms.map((l) => (JSON.parse(l) as { to: string }).to)).size,
      emails: emails.length,
      distinctEmails: new Set(emailIds).size,
      deliveries,
      queuedAgain,
      resentSms: smsLines().length - sms.length,
      resentEmails: emailFiles().length - emails.length,
    };
  } finally {
    await app.stop();
  }
}

export function reportNotifications(f: NotificationFigures) {
  console.log(`\nNotifications: ${f.reminders.toLocaleString("en-IN")} reminders due in 3 days, PostgreSQL, SMS and e-mail stand-ins`);
  console.table({
    "seed (s)": f.seedSeconds.toFixed(1),
    "queue the day's reminders (s)": f.queueSeconds.toFixed(2),
    "until every SMS and e-mail is out (s)": f.sendSeconds.toFixed(1),
    "reminders per second": f.perSecond.toFixed(0),
    notices: f.notices,
    "SMS written (distinct numbers)": `${f.smsLines} (${f.distinctSms})`,
    "e-mails written (distinct notices)": `${f.emails} (${f.distinctEmails})`,
    deliveries: JSON.stringify(f.deliveries),
    "queued again": f.queuedAgain,
    "SMS / e-mails sent again by rerunning every job": `${f.resentSms} / ${f.resentEmails}`,
  });
  const once = f.smsLines === f.notices && f.distinctSms === f.notices && f.emails === f.notices && f.distinctEmails === f.notices;
  if (!once || f.queuedAgain || f.resentSms || f.resentEmails) console.log("  ✗ a reminder was sent twice or not at all");
  else console.log("  ✓ every reminder sent once by SMS and once by e-mail; again, nothing");
}
