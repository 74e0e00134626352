import { and, asc, count, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indiaTime } from "../../app/domain/india-date.ts";
import { addDays, type IsoDate } from "../../app/domain/loan-math.ts";
import { auditLog, collectionCases, dunningRules, dunningSends, notifications } from "../../app/server/db/schema.ts";
import { runDunning } from "../../app/server/collections/dunning.server.ts";
import { runServicingDay } from "../../app/server/servicing/daily.server.ts";
import { activeLoan, instalmentOf, signedInStaff } from "../helpers/applications.ts";
import type { TestClock } from "../helpers/autopay.ts";
import { postForm, toastOf } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { signedInBorrower } from "../helpers/session.ts";

// The dunning rules page (docs/product.md "Collections"): data with a history. The collections desk
// reads it, an administrator saves a new version (stored, audited, in force for the next daily
// pass), and nothing invalid is stored: each problem is answered next to its field.
const PAGE = "/admin/collections/rules";
const clock: TestClock = { now: new Date("2026-03-02T05:30:00Z") };
let app: TestServer;
let admin: { cookie: string; userId: string };
let ops: { cookie: string };
let credit: { cookie: string };
let borrower: { cookie: string };
beforeAll(async () => {
  app = await startTestServer({ LOCAL_PAYOUT_SETTLE_SECONDS: "0", OTP_PER_IP_PER_HOUR: "1000000" }, { now: () => clock.now });
  admin = await signedInStaff(app, "admin", "Anil Mehta");
  ops = await signedInStaff(app, "operations", "Omar Shaikh");
  credit = await signedInStaff(app, "credit", "Asha Rao");
  borrower = await signedInBorrower(app, "9812340001");
});
afterAll(async () => {
  await app?.stop();
});

const versions = () => app.services.db.select().from(dunningRules).orderBy(desc(dunningRules.version));
const latest = async () => (await versions())[0];
const savedAudits = async () =>
  (await app.services.db.select({ n: count() }).from(auditLog).where(eq(auditLog.action, "dunning.rules_saved")))[0]?.n ?? 0;
const page = async (cookie: string) => app.get(PAGE, { headers: { cookie } });
/** The administrator's form as the page sends it, based on the version in force unless told. */
const save = async (fields: Record<string, string>, cookie = admin.cookie) =>
  postForm(app, PAGE, { version: String((await latest())?.version ?? 0), ...fields }, { cookie });
/** The text of a field's error, as the page shows it next to the field. */
const errorOf = (html: string, name: string) => new RegExp(`id="dunning-rules-${name}-error"[^>]*>([^<]*)<`).exec(html)?.[1] ?? null;

describe("the dunning rules page", () => {
  it("lets an administrator save a new version: stored, audited, in force, the old one in the history", async () => {
    const before = await latest();
    const res = await save({
      dpd0: "1",
      sms0: "on",
      push0: "on",
      tone0: "gentle",
      dpd1: "5",
      email1: "on",
      tone1: "firm",
      call1: "on",
      // Removed: a ticked "Remove" drops the row whatever it holds.
      dpd2: "9",
      sms2: "on",
      tone2: "firm",
      remove2: "on",
      // Entered out of order: stored by day.
      dpd3: "20",
      letter3: "on",
      tone3: "letter",
      dpd4: "",
      reason: "Fewer messages in the first week",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(PAGE);
    const saved = await latest();
    expect(saved?.version).toBe((before?.version ?? 0) + 1);
    expect(saved).toMatchObject({
      reason: "Fewer messages in the first week",
      savedBy: admin.userId,
      steps: [
        { dpd: 1, channels: ["sms", "push"], tone: "gentle", callTask: false },
        { dpd: 5, channels: ["email"], tone: "firm", callTask: true },
        { dpd: 20, channels: ["letter"], tone: "letter", callTask: false },
      ],
    });
    expect(toastOf(res)).toBe(`Saved as version ${saved?.version}. The daily pass sends reminders by it from its next run.`);
    const [audited] = await app.services.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "dunning.rules_saved"), eq(auditLog.actorUserId, admin.userId)))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(audited?.details).toMatchObject({ version: saved?.version, reason: "Fewer messages in the first week", steps: saved?.steps });

    const html = await (await page(admin.cookie)).text();
    const inForce = html.slice(html.indexOf('id="in-force-title"'), html.indexOf('id="save-title"'));
    expect(inForce).toContain(`In force: version ${saved?.version}`);
    expect(inForce).toContain("Saved by Anil Mehta");
    expect(inForce).toContain("Day 5: e-mail, firm, and a call task");
    expect(inForce).toContain("Day 20: letter, formal");
    expect(inForce).not.toContain("Day 9");
    // The history, newest first: this version in force, the one before it kept with its reason.
    const history = html.slice(html.indexOf('id="history-title"'));
    const shown = [...history.matchAll(/>Version (\d+)/g)].map((m) => Number(m[1]));
    expect(shown[0]).toBe(saved?.version);
    expect(shown).toEqual([...shown].sort((a, b) => b - a));
    expect(history).toContain(`Version ${saved?.version}, in force`);
    expect(history).toContain(`Version ${before?.version}<`);
    expect(history).toContain((before?.reason ?? "").replaceAll("'", "&#x27;"));
    // The form starts from the version in force, with two blank rows to add a step.
    expect(html).toMatch(/name="dpd1" value="5"/);
    expect(html).toContain('name="dpd4"');
    expect(html).not.toContain('name="dpd5"');
  });

  it("answers bad input with 400 and the message next to its field, keeps what was typed, and stores nothing", async () => {
    const rows = (await versions()).length;
    const audits = await savedAudits();
    const res = await save({
      dpd0: "0",
      sms0: "on",
      tone0: "gentle",
      dpd1: "3",
      sms1: "on",
      tone1: "gentle",
      dpd2: "3",
      email2: "on",
      tone2: "firm",
      dpd3: "9",
      tone3: "firm",
      reason: "Trying bad steps",
    });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(errorOf(html, "dpd0")).toBe("The day past due must be a whole number from 1 to 720.");
    expect(errorOf(html, "dpd1")).toBe("");
    expect(errorOf(html, "dpd2")).toBe("Step 2 is already on day 3: each day has one step.");
    expect(errorOf(html, "dpd3")).toBe(
      "This step sends no message and makes no call task: tick a channel or the call task, or remove the step.",
    );
    expect(html).toMatch(/id="dunning-rules-dpd0" [^>]*aria-invalid="true"/);
    // What was typed is still there.
    expect(html).toMatch(/name="dpd2" value="3"/);
    expect(html).toMatch(/name="email2" checked="" value="on"/);
    expect(html).toContain(">Trying bad steps</textarea>");

    // Every row removed: no step at all is the form's error; a missing reason is the reason's.
    const none = await save({ dpd0: "4", sms0: "on", tone0: "gentle", remove0: "on", reason: "" });
    expect(none.status).toBe(400);
    const noneHtml = await none.text();
    expect(noneHtml).toMatch(/role="alert"[^>]*>Keep at least one step\.</);
    expect(errorOf(noneHtml, "reason")).toBe("Say why it changes.");
    // A day past 720, and a step without a tone.
    const far = await save({ dpd0: "721", sms0: "on", tone0: "gentle", dpd1: "8", sms1: "on", reason: "Far too late" });
    expect(far.status).toBe(400);
    const farHtml = await far.text();
    expect(errorOf(farHtml, "dpd0")).toBe("The day past due must be a whole number from 1 to 720.");
    expect(errorOf(farHtml, "tone1")).toBe("Choose the tone of the message.");

    expect((await versions()).length).toBe(rows);
    expect(await savedAudits()).toBe(audits);
  });

  it("refuses the rules in force unchanged, and a form based on an older version", async () => {
    const current = await latest();
    const rows = (await versions()).length;
    const fields: Record<string, string> = { reason: "Saving the same again" };
    current?.steps.forEach((s, i) => {
      fields[`dpd${i}`] = String(s.dpd);
      fields[`tone${i}`] = s.tone;
      for (const c of s.channels) fields[`${c}${i}`] = "on";
      if (s.callTask) fields[`call${i}`] = "on";
    });
    const same = await save(fields);
    expect(same.status).toBe(409);
    expect(await same.text()).toContain("These steps are the rules in force already: change a step to save a new version.");
    const stale = await save({ ...fields, dpd0: "2", version: String((current?.version ?? 1) - 1) });
    expect(stale.status).toBe(409);
    expect(await stale.text()).toContain(`Version ${current?.version} was saved while you were editing.`);
    expect((await versions()).length).toBe(rows);
  });

  it("is read by operations, who see no form and whose save is refused; a credit officer and a borrower cannot open it", async () => {
    const res = await page(ops.cookie);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("In force: version");
    expect(html).toMatch(/Day \d+: /);
    expect(html).not.toContain('name="dpd0"');
    expect(html).toContain("Only an administrator can save a new version of the rules.");
    const rows = (await versions()).length;
    const refused = await save({ dpd0: "2", sms0: "on", tone0: "gentle", reason: "Operations trying" }, ops.cookie);
    expect(refused.status).toBe(403);
    expect((await versions()).length).toBe(rows);
    expect((await page(credit.cookie)).status).toBe(403);
    expect((await page(borrower.cookie)).status).toBe(403);
    expect((await save({ dpd0: "2", sms0: "on", tone0: "gentle", reason: "A borrower trying" }, borrower.cookie)).status).toBe(403);
    expect((await versions()).length).toBe(rows);
  });

  it("is linked from the collections queue", async () => {
    const html = await (await app.get("/admin/collections", { headers: { cookie: ops.cookie } })).text();
    expect(html).toMatch(/<a [^>]*href="\/admin\/collections\/rules"[^>]*>Dunning rules<\/a>/);
  });
});

describe("the daily pass", () => {
  /** The daily job on `day` at 00:30 India time: servicing, then dunning. */
  async function day(d: IsoDate) {
    clock.now = indiaTime(d, "00:30");
    await runServicingDay(app.services, d);
    return runDunning(app.services, { day: d });
  }

  it("sends by the version saved on the page: a day-2 SMS reaches a loan 2 days past due", async () => {
    clock.now = new Date("2026-03-02T05:30:00Z");
    const loan = await activeLoan(app, "9750099001", credit, ops);
    const first = await instalmentOf(app, loan.id, 1);
    const saved = await save({ dpd0: "2", sms0: "on", tone0: "gentle", dpd1: "10", email1: "on", tone1: "firm", reason: "Start on day 2" });
    expect(saved.status).toBe(302);
    const version = (await latest())?.version;
    await day(first.dueDate);
    await day(addDays(first.dueDate, 1));
    const [opened] = await app.services.db.select().from(collectionCases).where(eq(collectionCases.applicationId, loan.id));
    expect(opened).toBeTruthy();
    const sends = () =>
      app.services.db
        .select()
        .from(dunningSends)
        .where(eq(dunningSends.caseId, opened?.id ?? ""))
        .orderBy(asc(dunningSends.stepDpd));
    // Day 1 has no step in the new rules (the old ones sent one on day 1).
    expect(await sends()).toEqual([]);
    const d2 = addDays(first.dueDate, 2);
    await day(d2);
    const [sent] = await sends();
    expect(sent).toMatchObject({ stepDpd: 2, ruleVersion: version, channels: ["sms"], tone: "gentle", sentOn: d2, dpd: 2 });
    const [notice] = await app.services.db
      .select()
      .from(notifications)
      .where(eq(notifications.id, sent?.notificationId ?? ""));
    expect(notice?.channels).toEqual(["sms"]);
    expect(notice?.sms).toContain(loan.loanNumber);
    // Day 3 (a step of the old rules): nothing more.
    await day(addDays(first.dueDate, 3));
    expect((await sends()).map((s) => s.stepDpd)).toEqual([2]);
  });
});
