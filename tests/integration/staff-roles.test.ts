import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import routes from "../../app/routes.ts";
import { can, type Permission, ROLE_LABEL, STAFF_ROLES, type StaffRole } from "../../app/domain/roles.ts";
import { migrate, migrationsDir, openDatabase } from "../../app/server/db/client.ts";
import { users } from "../../app/server/db/schema.ts";
import { postForm } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { signedInBorrower } from "../helpers/session.ts";
import { signedInStaff } from "../helpers/applications.ts";

let app: TestServer;
const cookies = {} as Record<StaffRole | "borrower", string>;
let borrowerId = "";
beforeAll(async () => {
  app = await startTestServer();
  for (const role of STAFF_ROLES) cookies[role] = (await signedInStaff(app, role, `Asha ${role}`)).cookie;
  const borrower = await signedInBorrower(app, "9812345670");
  cookies.borrower = borrower.cookie;
  borrowerId = borrower.userId;
});
afterAll(async () => {
  await app?.stop();
});

const NO_SUCH_REFERENCE = "a".repeat(26);

/** "staff": any staff role; otherwise the permission the request needs. */
type Need = Permission | "staff";
interface StaffRequest {
  method: "GET" | "POST";
  path: () => string;
  needs: Need;
  form?: () => Record<string, string>;
}

/** Every staff route (by its file in app/routes.ts) and the requests that try it. */
const MATRIX: Record<string, StaffRequest[]> = {
  "routes/admin/home.tsx": [{ method: "GET", path: () => "/admin", needs: "staff" }],
  "routes/admin/applications.tsx": [{ method: "GET", path: () => "/admin/applications?q=98", needs: "applications.view" }],
  "routes/admin/application.tsx": [
    { method: "GET", path: () => `/admin/applications/${NO_SUCH_REFERENCE}`, needs: "applications.view" },
    ...["take", "take_over", "checks", "checklist", "ask", "approve", "reject"].map((intent): StaffRequest => ({
      method: "POST",
      path: () => `/admin/applications/${NO_SUCH_REFERENCE}`,
      needs: "applications.decide",
      form: () => ({ intent, reason: "policy", note: "A note of some length", message: "A question for the borrower" }),
    })),
    {
      method: "POST",
      path: () => `/admin/applications/${NO_SUCH_REFERENCE}`,
      needs: "policy.deviate",
      form: () => ({ intent: "confirm_deviation" }),
    },
    ...["disburse", "payout_check"].map((intent): StaffRequest => ({
      method: "POST",
      path: () => `/admin/applications/${NO_SUCH_REFERENCE}`,
      needs: "payouts.manage",
      form: () => ({ intent, confirm: "yes", payout: "00000000-0000-4000-8000-000000000000" }),
    })),
  ],
  "routes/admin/application-agreement.ts": [
    { method: "GET", path: () => `/admin/applications/${NO_SUCH_REFERENCE}/agreement.pdf`, needs: "applications.view" },
  ],
  "routes/admin/presence.tsx": [
    { method: "GET", path: () => "/admin/presence", needs: "borrowers.manage" },
    { method: "POST", path: () => "/admin/presence", needs: "borrowers.manage", form: () => ({ userId: borrowerId }) },
  ],
  "routes/admin/borrowers.tsx": [{ method: "GET", path: () => "/admin/borrowers?q=98", needs: "borrowers.view" }],
  "routes/admin/borrower.tsx": [
    { method: "GET", path: () => "/admin/borrowers/00000000-0000-4000-8000-000000000000", needs: "borrowers.view" },
    {
      method: "POST",
      path: () => "/admin/borrowers/00000000-0000-4000-8000-000000000000",
      needs: "borrowers.manage",
      form: () => ({ intent: "notice", once: "11111111-1111-4111-8111-111111111111", title: "Hello", message: "A test notice" }),
    },
  ],
  "routes/admin/audit.tsx": [{ method: "GET", path: () => "/admin/audit?action=loan.status", needs: "audit.view" }],
  "routes/admin/audit-csv.ts": [{ method: "GET", path: () => "/admin/audit.csv?action=loan.status", needs: "audit.export" }],
  "routes/admin/reports.tsx": [{ method: "GET", path: () => "/admin/reports", needs: "reports.view" }],
  "routes/admin/products.tsx": [
    { method: "GET", path: () => "/admin/products", needs: "settings.manage" },
    { method: "POST", path: () => "/admin/products", needs: "settings.manage", form: () => ({ intent: "emi", note: "" }) },
  ],
  "routes/admin/policy.tsx": [
    { method: "GET", path: () => "/admin/policy", needs: "policy.view" },
    ...["propose", "confirm", "withdraw"].map((intent): StaffRequest => ({
      method: "POST",
      path: () => "/admin/policy",
      needs: "policy.manage",
      // A proposal that changes nothing and a proposal that does not exist: refused, never stored.
      form: () => ({ intent, proposal: "999999", reason: "" }),
    })),
  ],
  "routes/admin/holidays.tsx": [
    { method: "GET", path: () => "/admin/holidays", needs: "settings.manage" },
    { method: "POST", path: () => "/admin/holidays", needs: "settings.manage", form: () => ({ intent: "remove", date: "1999-01-01" }) },
  ],
  "routes/admin/staff.tsx": [
    { method: "GET", path: () => "/admin/staff", needs: "settings.manage" },
    ...["invite", "role", "disable", "enable", "reset"].map((intent): StaffRequest => ({
      method: "POST",
      path: () => "/admin/staff",
      needs: "settings.manage",
      form: () => ({ intent, userId: "00000000-0000-4000-8000-000000000000", role: "support", name: "", email: "" }),
    })),
  ],
  "routes/admin/presence-events.ts": [{ method: "GET", path: () => "/admin/presence/events", needs: "borrowers.manage" }],
  "routes/admin/loan.tsx": [
    { method: "GET", path: () => "/admin/loans/SL00000000", needs: "loans.view" },
    ...[
      "record_payment",
      "release",
      "request_reversal",
      "confirm_reversal",
      "cancel_reversal",
      "waive",
      "refund",
      "cancel_mandate",
      "represent_debit",
    ].map((intent): StaffRequest => ({
      method: "POST",
      path: () => "/admin/loans/SL00000000",
      needs: "payments.manage",
      form: () => ({
        intent,
        amount: "100",
        date: "2026-01-01",
        mode: "NEFT",
        reference: "UTR1234",
        payment: `pm_${"a".repeat(24)}`,
        penal: "00000000-0000-4000-8000-000000000000",
        reason: "A reason of some length",
      }),
    })),
    {
      method: "POST",
      path: () => "/admin/loans/SL00000000",
      needs: "collections.manage",
      form: () => ({ intent: "note", channel: "call_in", outcome: "no_answer", note: "Rang twice" }),
    },
    {
      method: "POST",
      path: () => "/admin/loans/SL00000000",
      needs: "loans.write_off",
      form: () => ({ intent: "write_off", reason: "A reason of some length" }),
    },
  ],
  "routes/admin/tickets.tsx": [{ method: "GET", path: () => "/admin/tickets?view=overdue", needs: "tickets.manage" }],
  "routes/admin/ticket.tsx": [
    { method: "GET", path: () => "/admin/tickets/GRV-2026999999", needs: "tickets.manage" },
    ...["reply", "note", "assign", "status"].map((intent): StaffRequest => ({
      method: "POST",
      path: () => "/admin/tickets/GRV-2026999999",
      needs: "tickets.manage",
      form: () => ({
        intent,
        once: "22222222-2222-4222-8222-222222222222",
        message: "A reply of some length",
        then: "resolved",
        staff: "00000000-0000-4000-8000-000000000000",
        status: "closed",
      }),
    })),
  ],
  "routes/admin/collections.tsx": [{ method: "GET", path: () => "/admin/collections?bucket=NPA", needs: "collections.manage" }],
  "routes/admin/collections-rules.tsx": [
    { method: "GET", path: () => "/admin/collections/rules", needs: "collections.manage" },
    // A form with no reason and no step: refused, never stored.
    { method: "POST", path: () => "/admin/collections/rules", needs: "settings.manage", form: () => ({ version: "1", reason: "" }) },
  ],
  "routes/admin/autopay.tsx": [{ method: "GET", path: () => "/admin/autopay", needs: "payments.manage" }],
  "routes/admin/ckyc.tsx": [
    { method: "GET", path: () => "/admin/ckyc", needs: "ckyc.view" },
    // A borrower with no CKYC row: refused, nothing queued.
    { method: "POST", path: () => "/admin/ckyc", needs: "ckyc.manage", form: () => ({ intent: "retry", userId: borrowerId }) },
  ],
  "routes/admin/books.tsx": [{ method: "GET", path: () => "/admin/books?on=2026-01-31", needs: "books.view" }],
  "routes/admin/books-trial-balance-csv.ts": [{ method: "GET", path: () => "/admin/books/trial-balance.csv", needs: "books.view" }],
  "routes/admin/books-account.tsx": [{ method: "GET", path: () => "/admin/books/accounts/bank", needs: "books.view" }],
  "routes/admin/books-account-csv.ts": [{ method: "GET", path: () => "/admin/books/accounts/bank/ledger.csv", needs: "books.view" }],
  "routes/admin/books-journal.tsx": [{ method: "GET", path: () => "/admin/books/journal?kind=payment", needs: "books.view" }],
  "routes/admin/books-journal-csv.ts": [{ method: "GET", path: () => "/admin/books/journal.csv?kind=payment", needs: "books.view" }],
  "routes/admin/books-journal-xml.ts": [{ method: "GET", path: () => "/admin/books/journal.xml?kind=payment", needs: "books.view" }],
  "routes/admin/books-portfolio.tsx": [{ method: "GET", path: () => "/admin/books/portfolio", needs: "books.view" }],
  "routes/admin/books-portfolio-csv.ts": [{ method: "GET", path: () => "/admin/books/portfolio.csv", needs: "books.view" }],
  "routes/admin/books-income.tsx": [{ method: "GET", path: () => "/admin/books/income", needs: "books.view" }],
  "routes/admin/books-income-csv.ts": [{ method: "GET", path: () => "/admin/books/income.csv", needs: "books.view" }],
  "routes/admin/books-periods.tsx": [
    { method: "GET", path: () => "/admin/books/periods", needs: "books.view" },
    // A month that has not ended: refused, never closed.
    { method: "POST", path: () => "/admin/books/periods", needs: "books.manage", form: () => ({ month: "2099-12", note: "Not yet" }) },
  ],
  "routes/admin/books-rules.tsx": [
    { method: "GET", path: () => "/admin/books/rules", needs: "books.view" },
    // A form with no reason: refused, never stored.
    {
      method: "POST",
      path: () => "/admin/books/rules",
      needs: "books.manage",
      form: () => ({ intent: "framework", version: "1", reason: "" }),
    },
  ],
  "routes/admin/reconciliation.tsx": [
    { method: "GET", path: () => "/admin/reconciliation?lines=unmatched", needs: "books.view" },
    { method: "POST", path: () => "/admin/reconciliation", needs: "books.manage", form: () => ({ intent: "match" }) },
    // An exception that does not exist, and a note too short: refused, nothing stored.
    {
      method: "POST",
      path: () => "/admin/reconciliation",
      needs: "books.manage",
      form: () => ({ intent: "resolve", exception: "00000000-0000-4000-8000-000000000000", note: "x" }),
    },
  ],
  "routes/admin/bureau.tsx": [
    { method: "GET", path: () => "/admin/bureau", needs: "bureau.view" },
    // A date that is not one of the recent reporting dates: refused, nothing made.
    { method: "POST", path: () => "/admin/bureau", needs: "bureau.manage", form: () => ({ intent: "make", asOf: "2000-01-15" }) },
  ],
  "routes/admin/bureau-run.tsx": [
    { method: "GET", path: () => "/admin/bureau/runs/00000000-0000-4000-8000-000000000000", needs: "bureau.view" },
    // Not an upload: refused (415) before anything is read.
    { method: "POST", path: () => "/admin/bureau/runs/00000000-0000-4000-8000-000000000000", needs: "bureau.manage", form: () => ({}) },
  ],
  "routes/admin/bureau-file.ts": [
    { method: "GET", path: () => "/admin/bureau/runs/00000000-0000-4000-8000-000000000000/file", needs: "bureau.view" },
  ],
  "routes/admin/aml.tsx": [
    { method: "GET", path: () => "/admin/aml", needs: "aml.view" },
    // A match that does not exist and a note too short: refused, nothing stored.
    {
      method: "POST",
      path: () => "/admin/aml",
      needs: "aml.manage",
      form: () => ({ intent: "decide", match: "00000000-0000-4000-8000-000000000000", decision: "cleared", note: "x" }),
    },
  ],
  "routes/admin/privacy.tsx": [
    { method: "GET", path: () => "/admin/privacy", needs: "privacy.view" },
    // A request that does not exist: nothing answered.
    {
      method: "POST",
      path: () => "/admin/privacy",
      needs: "privacy.manage",
      form: () => ({ reference: "DR-00000000", outcome: "refused", answer: "Not a request anyone made, so nothing is answered." }),
    },
  ],
  "routes/admin/privacy/breaches.tsx": [{ method: "GET", path: () => "/admin/privacy/breaches", needs: "privacy.view" }],
  "routes/admin/privacy/breach-new.tsx": [
    { method: "GET", path: () => "/admin/privacy/breaches/new", needs: "privacy.manage" },
    // A form with nothing in it: refused, nothing stored.
    { method: "POST", path: () => "/admin/privacy/breaches/new", needs: "privacy.manage", form: () => ({ scope: "all" }) },
  ],
  "routes/admin/privacy/breach.tsx": [
    { method: "GET", path: () => "/admin/privacy/breaches/BR-00000000", needs: "privacy.view" },
    // A breach that does not exist: nothing marked, nothing sent.
    ...["report", "notify"].map((intent): StaffRequest => ({
      method: "POST",
      path: () => "/admin/privacy/breaches/BR-00000000",
      needs: "privacy.manage",
      form: () => ({ intent, boardReference: "DPB/2026/1", confirm: "yes" }),
    })),
  ],
  "routes/admin/aml-reports.tsx": [{ method: "GET", path: () => "/admin/aml/reports", needs: "aml.view" }],
  "routes/admin/aml-report-new.tsx": [
    { method: "GET", path: () => `/admin/aml/reports/new?borrower=${borrowerId}`, needs: "aml.manage" },
    // Grounds too short: refused, nothing drafted.
    {
      method: "POST",
      path: () => "/admin/aml/reports/new",
      needs: "aml.manage",
      form: () => ({
        borrower: borrowerId,
        suspectedAt: "2026-01-01T10:00",
        periodFrom: "2026-01-01",
        periodTo: "2026-01-01",
        grounds: "x",
      }),
    },
  ],
  "routes/admin/aml-report.tsx": [
    { method: "GET", path: () => "/admin/aml/reports/STR-00000000", needs: "aml.view" },
    // A report that does not exist: nothing changes.
    ...["review", "export", "acknowledge", "edit"].map((intent): StaffRequest => ({
      method: "POST",
      path: () => "/admin/aml/reports/STR-00000000",
      needs: "aml.manage",
      form: () => ({ intent, decision: "approve", fiuReference: "FIU/1", version: "x" }),
    })),
  ],
  "routes/admin/aml-report-file.ts": [{ method: "GET", path: () => "/admin/aml/reports/STR-00000000/file", needs: "aml.manage" }],
  "routes/admin/document-file.ts": [
    { method: "GET", path: () => "/admin/documents/00000000-0000-4000-8000-000000000000", needs: "applications.view" },
  ],
};
/** Staff routes open to people who are not signed in, by design. */
const PUBLIC_STAFF_ROUTES = ["routes/admin/login.tsx", "routes/admin/enrol.tsx", "routes/admin/layout.tsx"];

type RouteEntry = { path?: string; file: string; children?: RouteEntry[] };
const flatten = (entries: RouteEntry[]): RouteEntry[] => entries.flatMap((e) => [e, ...flatten(e.children ?? [])]);

async function ask(request: StaffRequest, cookie: string | undefined) {
  const controller = new AbortController();
  const headers = cookie ? { cookie } : undefined;
  const res =
    request.method === "POST"
      ? await postForm(app, request.path(), request.form?.() ?? {}, cookie ? { cookie } : {})
      : await app.get(request.path(), { headers, signal: controller.signal });
  controller.abort(); // an event stream would stay open
  return res.status;
}

describe("staff roles on every staff route", () => {
  it("has a row in the matrix for every /admin route", () => {
    const files = flatten(routes as RouteEntry[])
      .filter((r) => r.file.startsWith("routes/admin/"))
      .map((r) => r.file.replace(/^app\//, ""));
    const missing = files.filter((f) => !(f in MATRIX) && !PUBLIC_STAFF_ROUTES.includes(f));
    expect(missing).toEqual([]);
  });

  for (const [file, requests] of Object.entries(MATRIX)) {
    for (const request of requests) {
      it(`${request.method} ${request.path()} (${file}): ${request.needs}`, async () => {
        const answers: Record<string, number> = {};
        for (const role of STAFF_ROLES) answers[role] = await ask(request, cookies[role]);
        answers.borrower = await ask(request, cookies.borrower);
        answers.anonymous = await ask(request, undefined);
        for (const role of STAFF_ROLES) {
          const allowed = request.needs === "staff" || can(role, request.needs);
          if (allowed) {
            expect(answers[role], `${role} may`).not.toBe(403);
            expect(answers[role], `${role}`).toBeLessThan(500);
          } else expect(answers[role], `${role} may not`).toBe(403);
        }
        expect(answers.borrower, "a borrower").toBe(403);
        expect([302, 401, 403]).toContain(answers.anonymous);
      });
    }
  }
});

describe("the staff header", () => {
  it("names the person and their role on every staff page", async () => {
    for (const role of STAFF_ROLES) {
      const html = await (await app.get("/admin", { headers: { cookie: cookies[role] } })).text();
      expect(html).toContain(`Asha ${role}`);
      expect(html).toContain(ROLE_LABEL[role]);
    }
  });
});

describe("the staff roles migration", () => {
  it("turns today's staff accounts into support", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "roles-migration-"));
    const before = path.join(dir, "before");
    mkdirSync(before);
    for (const file of readdirSync(migrationsDir).filter((f) => f.endsWith(".sql") && f < "0011")) {
      copyFileSync(path.join(migrationsDir, file), path.join(before, file));
    }
    const database = await openDatabase({ url: undefined, dataDir: dir });
    try {
      await migrate(database.db, before);
      // In SQL: the schema module names columns later migrations add.
      await database.db.execute(sql`insert into users (email, role) values ('old.officer@lender.example', 'staff')`);
      expect(await migrate(database.db)).toContain("0011_staff_roles.sql");
      const [row] = await database.db.select({ role: users.role }).from(users).where(eq(users.email, "old.officer@lender.example"));
      expect(row?.role).toBe("support");
      await expect(database.db.insert(users).values({ email: "x@lender.example", role: "staff" as StaffRole })).rejects.toThrow();
    } finally {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
