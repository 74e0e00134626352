import { and, eq } from "drizzle-orm";
import { loanApplications, loanInstalments, loanSignatures, mandates, products, users } from "../../app/server/db/schema.ts";
import { createUserSession } from "../../app/server/auth/session.server.ts";
import type { StaffRole } from "../../app/domain/roles.ts";
import { CHECKLIST_ITEMS } from "../../app/domain/review.ts";
import { type BorrowerProfile, completeProfile, defaultProfile } from "../fixtures/kyc.ts";
import { postForm } from "./http.ts";
import { latestCode } from "./outbox.ts";
import type { TestServer } from "./server.ts";
import { signedInBorrower } from "./session.ts";

/**
 * A borrower with a complete profile who has signed an EMI loan application through the pages
 * (₹1,00,000 over 12 months, medical, the verified account): what a credit officer reviews.
 */
export async function signedApplication(app: TestServer, mobile: string, profile: Partial<BorrowerProfile> = {}) {
  const session = await signedInBorrower(app, mobile);
  const cookie = session.cookie;
  await completeProfile(app, cookie, defaultProfile(profile), mobile);
  const ref = await startedApplication(app, cookie, "Emi");
  await signTerms(app, { cookie, mobile, ref, amount: "1,00,000", tenure: "12" });
  const [row] = await app.services.db.select().from(loanApplications).where(eq(loanApplications.reference, ref));
  if (row?.status !== "signed") throw new Error(`the application is ${row?.status}`);
  const [signature] = await app.services.db.select().from(loanSignatures).where(eq(loanSignatures.applicationId, row.id));
  return { ...session, mobile, ref, id: row.id, agreementRef: signature?.agreementRef ?? "" };
}

const must = async (res: Promise<Response>, status: number, what: string) => {
  const r = await res;
  if (r.status !== status) throw new Error(`${what} answered ${r.status}: ${(await r.text()).slice(0, 300)}`);
  return r;
};

/**
 * A new application started as the dashboard does (a POST), with the credit check its Step0 asks
 * for (the borrower's consent, the PAN and the bureau through the local stand-ins): its reference.
 */
export async function startedApplication(app: TestServer, cookie: string, segment: "Emi" | "salaryAdvance") {
  const started = await postForm(app, `/User/newLoan/${segment}`, {}, { cookie });
  const ref = new RegExp(`/User/newLoan/${segment}/([a-z2-7]{26})/Step0$`).exec(started.headers.get("location") ?? "")?.[1];
  if (!ref) throw new Error(`could not start an application: ${started.status} ${started.headers.get("location")}`);
  await must(
    postForm(app, `/User/newLoan/${segment}/${ref}/Step0`, { intent: "credit_check", consentBureau: "yes" }, { cookie }),
    302,
    "the credit check",
  );
  return ref;
}

/** An EMI application's terms chosen at Step0, its details at Step1, its KFS read and signed with the code from the outbox. */
export async function signTerms(
  app: TestServer,
  { cookie, mobile, ref, amount, tenure }: { cookie: string; mobile: string; ref: string; amount: string; tenure: string },
) {
  const step = (s: string) => `/User/newLoan/Emi/${ref}/${s}`;
  await must(postForm(app, step("Step0"), { amount, tenure }, { cookie }), 302, "Step0");
  await must(postForm(app, step("Step1"), { purpose: "medical", disbursalConsent: "yes" }, { cookie }), 302, "Step1");
  await must(app.get(step("Step5"), { headers: { Cookie: cookie } }), 200, "Step5");
  const page = await (await must(app.get(step("Step6"), { headers: { Cookie: cookie } }), 200, "Step6")).text();
  const documentId = /name="documentId" value="([0-9a-f-]{36})"/.exec(page)?.[1] ?? "";
  await must(postForm(app, step("Step6"), { intent: "send" }, { cookie }), 200, "Step6 send");
  const code = latestCode(app.dataDir, mobile);
  await must(postForm(app, step("Step6"), { intent: "sign", documentId, accept: "yes", code }, { cookie }), 302, "Step6 sign");
}

/** A staff member of `role` with a live session; returns the Cookie header value and the user id. */
export async function signedInStaff(app: TestServer, role: StaffRole, name: string) {
  const email = `${name.toLowerCase().replace(/[^a-z]+/g, ".")}@lender.example`;
  const [user] = await app.services.db.insert(users).values({ email, role, name }).returning({ id: users.id });
  if (!user) throw new Error("could not create the staff member");
  const { setCookie } = await createUserSession(app.services, {
    userId: user.id,
    deviceId: `staff-${email}`,
    ip: "127.0.0.1",
    userAgent: "test",
  });
  return { cookie: setCookie.split(";")[0] ?? "", userId: user.id };
}

/** A new session for a staff member made by `signedInStaff` (a test clock moved past the old one's 180 days). */
export async function staffSessionAgain(app: TestServer, staff: { cookie: string; userId: string }) {
  const { setCookie } = await createUserSession(app.services, {
    userId: staff.userId,
    deviceId: `staff-${staff.userId}`,
    ip: "127.0.0.1",
    userAgent: "test",
  });
  staff.cookie = setCookie.split(";")[0] ?? "";
  return staff;
}

/** The five checklist items ticked, as the review page's form sends them. */
export const allTicked = () => new URLSearchParams([["intent", "checklist"], ...CHECKLIST_ITEMS.map((i) => ["items", i])]);

/**
 * A signed application taken, checked and approved by `officer` through the review page, with
 * autopay set up where its product pays out only once it is active: what operations disburses.
 */
export async function approvedApplication(
  app: TestServer,
  mobile: string,
  officer: { cookie: string },
  profile: Partial<BorrowerProfile> = {},
) {
  const signed = await signedApplication(app, mobile, profile);
  const path = `/admin/applications/${signed.ref}`;
  for (const fields of [{ intent: "take" }, allTicked(), { intent: "approve" }]) {
    const res = await postForm(app, path, fields, { cookie: officer.cookie });
    if (res.status !== 302) throw new Error(`${path} answered ${res.status}`);
  }
  const [row] = await app.services.db.select().from(loanApplications).where(eq(loanApplications.reference, signed.ref));
  if (row?.status !== "approved") throw new Error(`the application is ${row?.status}, not approved`);
  // Ready to be paid out: autopay is active where the product asks for it first.
  await autopayBeforeDisbursal(app, signed);
  return signed;
}

/**
 * Autopay set up on a signed application from its page and approved at the local stand-in, when its
 * product pays out only once autopay is active (docs/product.md "Autopay"; EMI loans by default).
 */
export async function autopayBeforeDisbursal(app: TestServer, { ref, cookie }: { ref: string; cookie: string }) {
  const [a] = await app.services.db.select().from(loanApplications).where(eq(loanApplications.reference, ref));
  if (!a || !app.services.mandates) return;
  const [product] = await app.services.db.select().from(products).where(eq(products.code, a.product));
  if (!product?.autopayBeforeDisbursal) return;
  const [live] = await app.services.db
    .select()
    .from(mandates)
    .where(and(eq(mandates.applicationId, a.id), eq(mandates.status, "active")));
  if (live) return;
  const step7 = `/User/newLoan/${a.product === "emi" ? "Emi" : "salaryAdvance"}/${ref}/Step7`;
  const started = await must(postForm(app, step7, { intent: "autopay_start" }, { cookie }), 302, "autopay on the application");
  const done = await must(postForm(app, started.headers.get("location") ?? "", { outcome: "approve" }), 302, "the stand-in's Approve");
  const back = new URL(done.headers.get("location") ?? "");
  await must(app.get(back.pathname + back.search, { headers: { Cookie: cookie } }), 302, "the return from the stand-in");
}

/**
 * An approved application disbursed by `ops` through the review page and confirmed by the payout
 * provider (the local stand-in settles at once with LOCAL_PAYOUT_SETTLE_SECONDS=0): an active loan.
 */
export async function activeLoan(
  app: TestServer,
  mobile: string,
  officer: { cookie: string },
  ops: { cookie: string },
  profile: Partial<BorrowerProfile> = {},
) {
  const approved = await approvedApplication(app, mobile, officer, profile);
  const res = await postForm(app, `/admin/applications/${approved.ref}`, { intent: "disburse", confirm: "yes" }, { cookie: ops.cookie });
  if (res.status !== 302) throw new Error(`disburse answered ${res.status}`);
  const deadline = Date.now() + 20_000;
  for (;;) {
    const [row] = await app.services.db.select().from(loanApplications).where(eq(loanApplications.reference, approved.ref));
    if (row?.status === "active" && row.loanNumber)
      return { ...approved, loanNumber: row.loanNumber, disbursalDate: row.disbursalDate as string };
    if (Date.now() > deadline) throw new Error(`the loan is ${row?.status}, not active`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A loan's instalment `seq` as fixed at disbursal. */
export async function instalmentOf(app: TestServer, applicationId: string, seq: number) {
  const [row] = await app.services.db
    .select()
    .from(loanInstalments)
    .where(and(eq(loanInstalments.applicationId, applicationId), eq(loanInstalments.seq, seq)));
  if (!row) throw new Error(`no instalment ${seq}`);
  return row;
}

/**
 * EMI loans paid out without autopay set up first (a product setting, on by default): for tests of
 * autopay set up on the loan's page after the money arrived.
 */
export async function emiWithoutAutopayFirst(app: TestServer) {
  await app.services.db.update(products).set({ autopayBeforeDisbursal: false }).where(eq(products.code, "emi"));
}
