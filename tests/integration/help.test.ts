import { and, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { auditLog, ticketMessages, tickets } from "../../app/server/db/schema.ts";
import { closeResolvedTickets } from "../../app/server/help/close-resolved.server.ts";
import { signedApplication, signedInStaff } from "../helpers/applications.ts";
import { postForm } from "../helpers/http.ts";
import { waitForJobs } from "../helpers/jobs.ts";
import { noticesOf, readEmails } from "../helpers/notices.ts";
import { readOutbox } from "../helpers/outbox.ts";
import { shownMarkup } from "../helpers/english.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { signedInBorrower } from "../helpers/session.ts";

// Help and grievances (docs/product.md "Help and grievances") through HTTP: a ticket raised with its
// reference on screen, by SMS and in the app; support's reply told to the borrower; internal notes
// never shown; reopening within 7 days; the way to the RBI Ombudsman after 30 days or when the
// answer is not accepted; another borrower's ticket is 404; every staff action audited.
let clock = new Date("2026-06-01T06:00:00Z");
let app: TestServer;
let support: { cookie: string; userId: string };
let credit: { cookie: string; userId: string };
beforeAll(async () => {
  app = await startTestServer({}, { now: () => clock });
  support = await signedInStaff(app, "support", "Sara Khan");
  credit = await signedInStaff(app, "credit", "Asha Rao");
});
afterAll(async () => {
  await app?.stop();
});

let serial = 0;
const borrower = async () => {
  const mobile = `96100${String(++serial).padStart(5, "0")}`;
  return { mobile, ...(await signedInBorrower(app, mobile)) };
};
const page = async (path: string, cookie: string) => {
  const res = await app.get(path, { headers: { Cookie: cookie } });
  return { status: res.status, html: await res.text() };
};
const ticketForm = (fields: Record<string, string> = {}) => ({
  once: crypto.randomUUID(),
  kind: "complaint",
  category: "repayment",
  subject: "Payment not shown",
  message: "I paid ₹5,000 on 1 June by UPI but the loan page does not show it.",
  ...fields,
});

async function raise(cookie: string, fields: Record<string, string> = {}) {
  const res = await postForm(app, "/User/Help/new", ticketForm(fields), { cookie });
  expect(res.status, await res.clone().text()).toBe(302);
  const reference = /^\/User\/Help\/(GRV-\d{10})$/.exec(res.headers.get("location") ?? "")?.[1];
  if (!reference) throw new Error(`no reference in ${res.headers.get("location")}`);
  return reference;
}
const ticketRow = async (reference: string) => {
  const [row] = await app.services.db.select().from(tickets).where(eq(tickets.reference, reference));
  if (!row) throw new Error(`no ticket ${reference}`);
  return row;
};
const staffPost = (reference: string, fields: Record<string, string>, who = support) =>
  postForm(app, `/admin/tickets/${reference}`, { once: crypto.randomUUID(), ...fields }, { cookie: who.cookie });

describe("raising a ticket", () => {
  it("gives the reference on screen, by SMS and in the app; lists it in Help; the same form twice is one ticket", async () => {
    clock = new Date("2026-06-01T06:00:00Z");
    const b = await borrower();
    const form = ticketForm();
    const first = await postForm(app, "/User/Help/new", form, { cookie: b.cookie });
    expect(first.status).toBe(302);
    const reference = /GRV-\d{10}$/.exec(first.headers.get("location") ?? "")?.[0] ?? "";
    expect(reference).toMatch(/^GRV-2026\d{6}$/);
    // Sent again (a double tap, a lost answer): the same ticket.
    const again = await postForm(app, "/User/Help/new", form, { cookie: b.cookie });
    expect(again.headers.get("location")).toBe(`/User/Help/${reference}`);
    expect(await app.services.db.select().from(tickets).where(eq(tickets.userId, b.userId))).toHaveLength(1);

    const shown = await page(`/User/Help/${reference}`, b.cookie);
    expect(shown.status).toBe(200);
    expect(shown.html).toContain("Payment not shown");
    expect(shown.html).toContain("I paid ₹5,000 on 1 June by UPI");
    expect(shown.html).toContain("Answer due by");
    expect(shown.html).toContain("1 Jul 2026");
    // Read out over the phone, typed in lower case with spaces: the same ticket.
    expect((await page(`/User/Help/${reference.toLowerCase().replace("-", " ")}`, b.cookie)).status).toBe(200);
    const help = await page("/User/Help", b.cookie);
    expect(help.html).toContain(reference);
    expect(help.html).toContain("Open");

    await vi.waitFor(() => {
      const sms = readOutbox(app.dataDir).filter((m) => m.to === b.mobile && m.text.includes(reference));
      expect(sms).toHaveLength(1);
      expect(sms[0]?.text).toMatch(/we have your ticket GRV-\d{10}\. We answer within 30 days/);
    });
    const [notice] = await noticesOf(app, b.userId, "ticket_raised");
    expect(notice?.path).toBe(`/User/Help/${reference}`);
  });

  it("answers bad input with 400 next to each field and stores nothing; a loan that is not theirs is refused", async () => {
    const b = await borrower();
    const bad = await postForm(app, "/User/Help/new", { once: crypto.randomUUID(), kind: "rant", subject: "Hi", message: "short" }, b);
    expect(bad.status).toBe(400);
    const html = await bad.text();
    expect(html).toContain("Choose a complaint or a question.");
    expect(html).toContain("Choose what it is about.");
    expect(html).toContain("Give it a short title (at least 5 characters).");
    expect(html).toContain("Write at least 10 characters so we can help.");
    expect(html).toContain('value="Hi"');

    const other = await signedApplication(app, "9610099901");
    const foreign = await postForm(app, "/User/Help/new", ticketForm({ loan: other.ref }), { cookie: b.cookie });
    expect(foreign.status).toBe(400);
    expect(await foreign.text()).toContain("Choose one of your loans from the list.");
    const huge = await postForm(app, "/User/Help/new", ticketForm({ message: "x".repeat(2001) }), { cookie: b.cookie });
    expect(huge.status).toBe(400);
    expect(await app.services.db.select().from(tickets).where(eq(tickets.userId, b.userId))).toEqual([]);

    // Their own application is accepted and shown by its short number.
    const reference = await raise(other.cookie, { loan: other.ref });
    expect((await ticketRow(reference)).applicationId).toBe(other.id);
    expect((await page(`/User/Help/${reference}`, other.cookie)).html).toContain(
      `EMI loan application ${other.ref.slice(0, 8).toUpperCase()}`,
    );
  });

  it("gives another borrower's ticket, and one that does not exist, the not-found page, and changes nothing", async () => {
    const owner = await borrower();
    const stranger = await borrower();
    const reference = await raise(owner.cookie);
    const peek = await page(`/User/Help/${reference}`, stranger.cookie);
    expect(peek.status).toBe(404);
    expect(shownMarkup(peek.html)).not.toContain("Payment not shown");
    expect((await page("/User/Help/GRV-2026999999", owner.cookie)).status).toBe(404);
    expect((await page("/User/Help/not-a-reference", owner.cookie)).status).toBe(404);
    const reply = await postForm(
      app,
      `/User/Help/${reference}`,
      { intent: "reply", once: crypto.randomUUID(), message: "Hijack" },
      stranger,
    );
    expect(reply.status).toBe(404);
    const messages = await app.services.db
      .select()
      .from(ticketMessages)
      .where(eq(ticketMessages.ticketId, (await ticketRow(reference)).id));
    expect(messages.map((m) => m.body)).not.toContain("Hijack");
    // Signed out: sign in first.
    expect((await app.get(`/User/Help/${reference}`)).status).toBe(302);
  });

  it("numbers tickets in order within the year, each reference once, when many are raised at once", async () => {
    // Four borrowers, two tickets each, all at once (one borrower may have only 3 open).
    const people = await Promise.all(Array.from({ length: 4 }, () => borrower()));
    const references = await Promise.all(people.flatMap((p) => [raise(p.cookie), raise(p.cookie)]));
    expect(new Set(references).size).toBe(8);
    const numbers = references.map((r) => Number(r.slice(8))).sort((x, y) => x - y);
    expect(numbers.at(-1)! - numbers[0]!).toBe(7);
    // The same form sent twice at once: one ticket, and no number spent on the second.
    const b = people[0]!;
    const form = ticketForm();
    const [x, y] = await Promise.all([postForm(app, "/User/Help/new", form, b), postForm(app, "/User/Help/new", form, b)]);
    expect(x.headers.get("location")).toBe(y.headers.get("location"));
    expect(Number(/GRV-\d{4}(\d{6})$/.exec(x.headers.get("location") ?? "")?.[1])).toBe(numbers.at(-1)! + 1);
    expect(await app.services.db.select().from(tickets).where(eq(tickets.userId, b.userId))).toHaveLength(3);
  });

  it("takes at most 3 open tickets from 30 posts at once, with 3 SMS; then offers an open ticket, and adding to it works", async () => {
    const b = await borrower();
    const posts = await Promise.all(
      Array.from({ length: 30 }, (_, i) => postForm(app, "/User/Help/new", ticketForm({ subject: `Payment not shown ${i}` }), b)),
    );
    const made = posts.filter((r) => r.status === 302);
    expect(made).toHaveLength(3);
    expect(posts.filter((r) => r.status === 409)).toHaveLength(27);
    const mine = await app.services.db.select().from(tickets).where(eq(tickets.userId, b.userId));
    expect(mine).toHaveLength(3);
    const smsOf = () => readOutbox(app.dataDir).filter((m) => m.to === b.mobile && /we have your ticket GRV-/.test(m.text));
    await vi.waitFor(() => expect(smsOf()).toHaveLength(3));

    // A refused post keeps what was typed and offers the open tickets, saying why next to the form.
    const refused = await posts.find((r) => r.status === 409)!.text();
    expect(refused).toContain("You already have 3 tickets open with us, which is as many as one account can have at once.");
    expect(refused).toContain("I paid ₹5,000 on 1 June by UPI");
    // The form itself, at the limit: the reason, each open ticket to choose, no new-ticket form.
    const form = (await page("/User/Help/new", b.cookie)).html;
    expect(form).toContain("We never turn a complaint away");
    for (const t of mine) expect(form).toContain(`value="${t.reference}"`);
    expect(shownMarkup(form)).not.toContain("Raise the ticket");

    // Added to one of them: the message is on that ticket, no new ticket, no new SMS.
    const target = mine[0]!.reference;
    const added = await postForm(
      app,
      "/User/Help/new",
      { intent: "add", once: crypto.randomUUID(), ticket: target, message: "The money left my account on 1 June, UTR 123456789012." },
      b,
    );
    expect(added.status).toBe(302);
    expect(added.headers.get("location")).toBe(`/User/Help/${target}`);
    expect((await page(`/User/Help/${target}`, b.cookie)).html).toContain("The money left my account on 1 June, UTR 123456789012.");
    expect(await app.services.db.select().from(tickets).where(eq(tickets.userId, b.userId))).toHaveLength(3);
    // Another borrower's ticket is not theirs to add to: answered next to the field, nothing written.
    const other = await borrower();
    const foreign = await postForm(
      app,
      "/User/Help/new",
      { intent: "add", once: crypto.randomUUID(), ticket: target, message: "Someone else writing on it." },
      other,
    );
    expect(foreign.status).toBe(400);
    expect(await foreign.text()).toContain("That ticket is no longer open. Choose one of your open tickets.");
    const messages = await app.services.db.select().from(ticketMessages).where(eq(ticketMessages.ticketId, mine[0]!.id));
    expect(messages.map((m) => m.body)).not.toContain("Someone else writing on it.");
    // A notice for the added message would have its notify job sent before the answer: once every
    // due one has been worked, its SMS would be in the outbox.
    await waitForJobs(app, "notify");
    expect(smsOf()).toHaveLength(3);
  });

  it("takes at most 5 new tickets a day from one borrower, while one is open to add to", async () => {
    const b = await borrower();
    const first = [await raise(b.cookie), await raise(b.cookie), await raise(b.cookie)];
    // Support resolves them; two more make five today.
    await app.services.db.update(tickets).set({ status: "resolved", resolvedAt: clock }).where(eq(tickets.userId, b.userId));
    const more = [await raise(b.cookie), await raise(b.cookie)];
    const sixth = await postForm(app, "/User/Help/new", ticketForm(), b);
    expect(sixth.status).toBe(409);
    const html = await sixth.text();
    expect(html).toContain("You have raised 5 tickets in a day, which is as many as one account can raise");
    for (const reference of more) expect(html).toContain(`value="${reference}"`);
    for (const reference of first) expect(html).not.toContain(`value="${reference}"`);
    expect(await app.services.db.select().from(tickets).where(eq(tickets.userId, b.userId))).toHaveLength(5);
    // With nothing open to add to, a complaint is never turned away.
    await app.services.db.update(tickets).set({ status: "resolved", resolvedAt: clock }).where(eq(tickets.userId, b.userId));
    await raise(b.cookie);
    expect(await app.services.db.select().from(tickets).where(eq(tickets.userId, b.userId))).toHaveLength(6);
  });
});

describe("a ticket's life", () => {
  it("support answers (the borrower is told), notes stay internal, the borrower replies, it is resolved and reopened", async () => {
    clock = new Date("2026-06-02T06:00:00Z");
    const b = await borrower();
    const reference = await raise(b.cookie);

    // Support's queue and home show it; credit officers have no tickets.
    expect((await page("/admin/tickets", support.cookie)).html).toContain(reference);
    expect((await page("/admin", support.cookie)).html).toMatch(/Open tickets/);
    expect((await page("/admin", credit.cookie)).html).not.toMatch(/Open tickets/);
    expect((await page(`/admin/tickets/${reference}`, credit.cookie)).status).toBe(403);

    // An internal note, then a reply asking for the UTR.
    expect((await staffPost(reference, { intent: "note", message: "Checked the gateway: nothing yet." })).status).toBe(302);
    const asked = await staffPost(reference, { intent: "reply", message: "Please send the UPI reference (UTR).", then: "waiting" });
    expect(asked.status).toBe(302);
    let row = await ticketRow(reference);
    expect(row).toMatchObject({ status: "waiting", assignedTo: support.userId });
    const mine = await page(`/User/Help/${reference}`, b.cookie);
    expect(mine.html).toContain("Please send the UPI reference (UTR).");
    expect(mine.html).toContain("Waiting for you");
    expect(mine.html).not.toContain("Checked the gateway");
    await vi.waitFor(() => {
      expect(
        readOutbox(app.dataDir).filter((m) => m.to === b.mobile && m.text.includes(`we answered your ticket ${reference}`)),
      ).toHaveLength(1);
    });
    expect(await noticesOf(app, b.userId, "ticket_answered")).toHaveLength(1);

    // The borrower replies: back with support. The same reply sent twice is one message.
    const replyForm = { intent: "reply", once: crypto.randomUUID(), message: "UTR 412345678901" };
    expect((await postForm(app, `/User/Help/${reference}`, replyForm, b)).status).toBe(302);
    expect((await postForm(app, `/User/Help/${reference}`, replyForm, b)).status).toBe(302);
    row = await ticketRow(reference);
    expect(row.status).toBe("in_progress");
    const bodies = (await app.services.db.select().from(ticketMessages).where(eq(ticketMessages.ticketId, row.id))).map((m) => m.body);
    expect(bodies.filter((m) => m === "UTR 412345678901")).toHaveLength(1);

    // Resolved; a reply is now refused, reopening is offered for 7 days.
    clock = new Date("2026-06-03T06:00:00Z");
    expect((await staffPost(reference, { intent: "reply", message: "Found it and applied it.", then: "resolved" })).status).toBe(302);
    expect((await ticketRow(reference)).status).toBe("resolved");
    const late = await postForm(app, `/User/Help/${reference}`, { intent: "reply", once: crypto.randomUUID(), message: "Thanks" }, b);
    expect(late.status).toBe(409);
    expect(await late.text()).toContain("This ticket is resolved. Reopen it if the problem is not solved.");
    const resolvedPage = await page(`/User/Help/${reference}`, b.cookie);
    expect(resolvedPage.html).toContain("Reopen the ticket");
    expect(resolvedPage.html).toContain("10 Jun 2026");

    clock = new Date("2026-06-05T06:00:00Z");
    const reopen = { intent: "reopen", once: crypto.randomUUID(), message: "The penal charge is still on the loan page." };
    expect((await postForm(app, `/User/Help/${reference}`, reopen, b)).status).toBe(302);
    row = await ticketRow(reference);
    expect(row).toMatchObject({ status: "in_progress", resolvedAt: null, reopenedCount: 1 });

    // Resolved again, and not reopened: after 7 days it can no longer be reopened, and housekeeping closes it.
    expect((await staffPost(reference, { intent: "reply", message: "Reversed the charge.", then: "resolved" })).status).toBe(302);
    clock = new Date("2026-06-13T06:00:00Z");
    const tooLate = await postForm(app, `/User/Help/${reference}`, { ...reopen, once: crypto.randomUUID() }, b);
    expect(tooLate.status).toBe(409);
    expect(shownMarkup(await tooLate.text())).toContain("within 7 days of its answer");
    expect(await closeResolvedTickets(app.services)).toBeGreaterThanOrEqual(1);
    expect((await ticketRow(reference)).status).toBe("closed");
    expect((await page(`/User/Help/${reference}`, b.cookie)).html).toContain("This ticket is closed");

    // Every staff action is in the audit log, with who did it.
    const audit = await app.services.db
      .select({ action: auditLog.action, actor: auditLog.actorUserId })
      .from(auditLog)
      .where(and(eq(auditLog.subjectType, "ticket"), eq(auditLog.subjectId, reference)))
      .orderBy(auditLog.id);
    expect(audit.map((a) => a.action)).toEqual(["ticket.note", "ticket.reply", "ticket.reply", "ticket.reply"]);
    expect(new Set(audit.map((a) => a.actor))).toEqual(new Set([support.userId]));
  });

  it("tells the borrower when staff resolve a ticket from its status, and shows staff the answers not accepted", async () => {
    clock = new Date("2026-06-20T06:00:00Z");
    const b = await borrower();
    const reference = await raise(b.cookie);
    expect((await staffPost(reference, { intent: "status", status: "resolved" })).status).toBe(302);
    await vi.waitFor(() => {
      expect(
        readOutbox(app.dataDir).filter((m) => m.to === b.mobile && m.text.includes(`we answered your ticket ${reference}`)),
      ).toHaveLength(1);
    });
    const [notice] = await noticesOf(app, b.userId, "ticket_answered");
    expect(notice?.title).toBe(`Ticket ${reference} is resolved`);
    expect((await page(`/User/Help/${reference}`, b.cookie)).html).toContain("Status changed from Open to Resolved.");

    expect((await postForm(app, `/User/Help/${reference}`, { intent: "not_accepted" }, b)).status).toBe(302);
    expect((await page("/admin/tickets?view=not_accepted", support.cookie)).html).toContain(reference);
    expect((await page("/admin", support.cookie)).html).toMatch(/Answers the borrower did not accept/);
    // A new answer is a new chance to accept it: it leaves that view.
    await staffPost(reference, { intent: "reply", message: "We looked again: the charge was reversed.", then: "resolved" });
    expect((await page("/admin/tickets?view=not_accepted", support.cookie)).html).not.toContain(reference);
  });

  it("keeps a staff reply whose form key another ticket's message holds (a page kept open too long)", async () => {
    const b = await borrower();
    const [one, two] = [await raise(b.cookie), await raise(b.cookie)];
    const once = crypto.randomUUID();
    expect((await staffPost(one, { intent: "note", once, message: "First note." })).status).toBe(302);
    expect((await staffPost(two, { intent: "note", once, message: "Second note." })).status).toBe(302);
    const row = await ticketRow(two);
    const notes = await app.services.db.select().from(ticketMessages).where(eq(ticketMessages.ticketId, row.id));
    expect(notes.map((n) => n.body)).toContain("Second note.");
  });

  it("staff assign, change the status (audited), and are refused an assignee who cannot take tickets", async () => {
    const b = await borrower();
    const reference = await raise(b.cookie);
    const colleague = await signedInStaff(app, "admin", "Ravi Admin");
    expect((await staffPost(reference, { intent: "assign", staff: colleague.userId })).status).toBe(302);
    expect(await ticketRow(reference)).toMatchObject({ assignedTo: colleague.userId, status: "in_progress" });
    const refused = await staffPost(reference, { intent: "assign", staff: credit.userId });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("Choose a support colleague or an administrator");
    expect((await staffPost(reference, { intent: "status", status: "closed" })).status).toBe(302);
    const closed = await ticketRow(reference);
    expect(closed.status).toBe("closed");
    expect(closed.closedAt).not.toBeNull();
    const reply = await staffPost(reference, { intent: "reply", message: "One more thing.", then: "resolved" });
    expect(reply.status).toBe(409);
    const bad = await staffPost(reference, { intent: "status", status: "lost" });
    expect(bad.status).toBe(400);
    const [last] = await app.services.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.subjectType, "ticket"), eq(auditLog.subjectId, reference)))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(last).toMatchObject({ action: "ticket.status", actorUserId: support.userId, details: { from: "in_progress", to: "closed" } });
    expect((await staffPost("GRV-2026999999", { intent: "note", message: "Nobody's ticket" })).status).toBe(404);
  });
});

describe("escalation to the RBI Integrated Ombudsman", () => {
  it("is shown on a complaint not resolved within 30 days, with the reference and dates to copy", async () => {
    clock = new Date("2026-07-01T06:00:00Z");
    const b = await borrower();
    const complaint = await raise(b.cookie);
    const question = await raise(b.cookie, { kind: "request", subject: "How do I change my e-mail?" });
    expect(shownMarkup((await page(`/User/Help/${complaint}`, b.cookie)).html)).not.toContain("Take it to the RBI Integrated Ombudsman");

    clock = new Date("2026-08-01T06:00:00Z");
    const shown = await page(`/User/Help/${complaint}`, b.cookie);
    expect(shown.html).toContain("Take it to the RBI Integrated Ombudsman");
    expect(shown.html).toContain("We did not resolve this complaint within 30 days.");
    expect(shown.html).toContain("https://cms.rbi.org.in");
    expect(shown.html).toContain(`Complaint reference: ${complaint}`);
    expect(shown.html).toContain("Complaint raised on: 1 Jul 2026");
    expect(shown.html).toContain("No final answer by: 31 Jul 2026");
    expect((await page("/User/Help", b.cookie)).html).toContain("You may escalate");
    // A question is not a complaint: no escalation for it.
    expect(shownMarkup((await page(`/User/Help/${question}`, b.cookie)).html)).not.toContain("Take it to the RBI Integrated Ombudsman");
    // Staff see it past due.
    expect((await page("/admin/tickets?view=overdue", support.cookie)).html).toContain(complaint);
    expect((await page(`/admin/tickets/${complaint}`, support.cookie)).html).toContain("Not resolved in 30 days");
  });

  it("is shown when the borrower does not accept the answer", async () => {
    clock = new Date("2026-08-10T06:00:00Z");
    const b = await borrower();
    const reference = await raise(b.cookie);
    // Only an answered ticket can be not accepted.
    const early = await postForm(app, `/User/Help/${reference}`, { intent: "not_accepted" }, b);
    expect(early.status).toBe(409);
    await staffPost(reference, { intent: "reply", message: "The charge is correct under your KFS.", then: "resolved" });
    expect(shownMarkup((await page(`/User/Help/${reference}`, b.cookie)).html)).not.toContain("Take it to the RBI Integrated Ombudsman");
    expect((await postForm(app, `/User/Help/${reference}`, { intent: "not_accepted" }, b)).status).toBe(302);
    const shown = await page(`/User/Help/${reference}`, b.cookie);
    expect(shown.html).toContain("You told us you do not accept our answer.");
    expect(shown.html).toContain("Answer given on: 10 Aug 2026");
    expect((await ticketRow(reference)).notAcceptedAt).not.toBeNull();
  });
});

describe("a dispute of credit information", () => {
  it("is answered within 21 days; staff see the due date, then each day late and the ₹100 a day owed", async () => {
    clock = new Date("2026-10-01T04:30:00Z"); // 10:00 on 1 October in India
    const b = await borrower();
    expect((await page("/User/Help/new", b.cookie)).html).toContain("My credit report (credit bureau information)");
    const dispute = await raise(b.cookie, {
      category: "credit_information",
      subject: "Wrong overdue on my CIBIL report",
      message: "My credit report shows an EMI overdue in August that I paid on time.",
    });
    const other = await raise(b.cookie, { subject: "Payment not shown in October" });
    expect((await ticketRow(dispute)).category).toBe("credit_information");

    // The borrower sees the due date, 21 days on; another category's is 30.
    const mine = await page(`/User/Help/${dispute}`, b.cookie);
    expect(mine.html).toContain("My credit report (credit bureau information)");
    expect(mine.html).toContain("Answer due by");
    expect(mine.html).toContain("22 Oct 2026");
    expect((await page(`/User/Help/${other}`, b.cookie)).html).toContain("31 Oct 2026");
    const staffPage = await page(`/admin/tickets/${dispute}`, support.cookie);
    expect(staffPage.html).toContain("22 Oct 2026 (21 days)");
    expect(staffPage.html).not.toContain("Compensation owed");
    expect((await page(`/admin/tickets/${other}`, support.cookie)).html).toContain("31 Oct 2026 (30 days)");

    // On the due date itself, late at night in India: not late yet.
    clock = new Date("2026-10-22T18:00:00Z"); // 23:30 on 22 October in India
    // The count as read on the page (React marks where text and a value meet with an empty comment).
    const pastDue = async () =>
      Number(/(\d+) past the due date/.exec((await page("/admin/tickets", support.cookie)).html.replaceAll("<!-- -->", ""))?.[1]);
    const before = await pastDue();
    expect(Number.isInteger(before)).toBe(true);
    expect((await page("/admin/tickets?view=overdue", support.cookie)).html).not.toContain(dispute);
    expect((await page(`/admin/tickets/${dispute}`, support.cookie)).html).not.toContain("days late");

    // Three India days after it: past due, 3 days late, ₹300 owed; the other ticket is not yet due.
    clock = new Date("2026-10-25T06:00:00Z");
    expect(await pastDue()).toBe(before + 1);
    const queue = (await page("/admin/tickets", support.cookie)).html;
    expect(queue).toContain("3 days late · ₹300 owed");
    const overdue = (await page("/admin/tickets?view=overdue", support.cookie)).html;
    expect(overdue).toContain(dispute);
    expect(overdue).not.toContain(other);
    expect((await page("/admin", support.cookie)).html).toContain("Tickets past their due date");
    const late = (await page(`/admin/tickets/${dispute}`, support.cookie)).html;
    expect(late).toContain("3 days late · ₹300 owed");
    expect(late).toContain("Compensation owed to the borrower");
    expect(late).toContain("it grows each day until the ticket is resolved");
    // The borrower is shown the due date, not a sum; and the Ombudsman is still 30 days away.
    const borrowerView = (await page(`/User/Help/${dispute}`, b.cookie)).html;
    expect(borrowerView).toContain("22 Oct 2026");
    expect(borrowerView).not.toContain("₹300");
    expect(shownMarkup(borrowerView)).not.toContain("Take it to the RBI Integrated Ombudsman");

    // Resolved that day: the amount stops growing and stays on the ticket for staff.
    expect((await staffPost(dispute, { intent: "reply", message: "We corrected the bureau record.", then: "resolved" })).status).toBe(302);
    clock = new Date("2026-11-02T06:00:00Z");
    expect((await page(`/admin/tickets/${dispute}`, support.cookie)).html).toContain("3 days late · ₹300 owed");
    expect((await page("/admin/tickets?view=resolved", support.cookie)).html).toContain("3 days late · ₹300 owed");
    expect((await page("/admin/tickets?view=overdue", support.cookie)).html).not.toContain(dispute);
    // The other ticket, due on 31 October: late, with nothing owed.
    const otherPage = (await page(`/admin/tickets/${other}`, support.cookie)).html;
    expect(otherPage).toContain("2 days late");
    // (Read without the page's scripts: the words every page carries say "Not allowed".)
    expect(shownMarkup(otherPage)).not.toMatch(/\bowed\b/);
    expect((await page("/admin/tickets?view=overdue", support.cookie)).html).toContain(other);
  });
});

describe("a contact-form ticket", () => {
  it("is answered by e-mail, once", async () => {
    clock = new Date(Date.now());
    const res = await postForm(app, "/Contact-us", {
      once: crypto.randomUUID(),
      name: "Kiran Das",
      mobile: "9610088801",
      email: "kiran.das@example.com",
      message: "Do you lend to self-employed people?",
    });
    expect(res.status).toBe(200);
    const reference = /(GRV-\d{10})/.exec(await res.text())?.[1] ?? "";
    expect((await page("/admin/tickets?view=unassigned", support.cookie)).html).toContain(reference);
    const staffView = await page(`/admin/tickets/${reference}`, support.cookie);
    expect(staffView.html).toContain("from the contact form");
    expect(staffView.html).toContain("kiran.das@example.com");
    const once = crypto.randomUUID();
    const answer = { intent: "reply", once, message: "Yes: an EMI loan, with your last two income-tax returns.", then: "resolved" };
    expect((await staffPost(reference, answer)).status).toBe(302);
    expect((await postForm(app, `/admin/tickets/${reference}`, answer, support)).status).toBe(302);
    await vi.waitFor(
      () => {
        const mails = readEmails(app.dataDir).filter((m) => m.raw.includes(`X-Ticket-Reference: ${reference}`));
        expect(mails).toHaveLength(2); // the acknowledgement and the one reply
        expect(mails.some((m) => m.raw.includes("Yes: an EMI loan"))).toBe(true);
      },
      { timeout: 15_000, interval: 100 },
    );
  });
});
