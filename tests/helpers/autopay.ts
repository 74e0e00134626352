import { eq } from "drizzle-orm";
import { indiaTime } from "../../app/domain/india-date.ts";
import type { IsoDate } from "../../app/domain/loan-math.ts";
import { presentationDate } from "../../app/domain/loans/autopay.ts";
import { mandates } from "../../app/server/db/schema.ts";
import { runAutopayDay } from "../../app/server/mandates/day.server.ts";
import { runServicingDay } from "../../app/server/servicing/daily.server.ts";
import type { BorrowerProfile } from "../fixtures/kyc.ts";
import { activeLoan, instalmentOf } from "./applications.ts";
import { postForm } from "./http.ts";
import type { TestServer } from "./server.ts";

/** The test server's clock (`startTestServer(…, { now: () => clock.now })`), moved by the tests. */
export interface TestClock {
  now: Date;
}

/**
 * An active EMI loan with autopay set up on its page and approved at the local stand-in, on
 * 2 March 2026 (the account decides whether its debits bounce: one ending 1111 does).
 */
export async function loanWithAutopay(
  app: TestServer,
  clock: TestClock,
  staff: { credit: { cookie: string }; ops: { cookie: string } },
  {
    mobile,
    accountNumber = "50100012345678",
    profile = {},
  }: { mobile: string; accountNumber?: string; profile?: Partial<BorrowerProfile> },
) {
  clock.now = new Date("2026-03-02T05:30:00Z");
  const loan = await activeLoan(app, mobile, staff.credit, staff.ops, { ...profile, accountNumber });
  const path = `/User/Loans/Emi/${loan.loanNumber}`;
  const started = await postForm(app, path, { intent: "autopay_start" }, { cookie: loan.cookie });
  const done = await postForm(app, started.headers.get("location") ?? "", { outcome: "approve" });
  const back = new URL(done.headers.get("location") ?? "");
  await app.get(back.pathname + back.search, { headers: { Cookie: loan.cookie } });
  const [m] = await app.services.db.select().from(mandates).where(eq(mandates.applicationId, loan.id));
  if (m?.status !== "active") throw new Error("autopay is not active");
  const first = await instalmentOf(app, loan.id, 1);
  const presentOn = presentationDate(first.dueDate, m.kind, app.services.config.holidays);
  return { ...loan, path, mandate: m, first, presentOn };
}

/** The daily job's work on `day` at 00:30 India time: servicing, then autopay. */
export async function autopayDay(app: TestServer, clock: TestClock, day: IsoDate) {
  clock.now = indiaTime(day, "00:30");
  await runServicingDay(app.services, day);
  return runAutopayDay(app.services);
}
