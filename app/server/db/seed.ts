import { randomBytes } from "node:crypto";
import { count, eq } from "drizzle-orm";
import { hashPassword } from "../auth/staff.server.ts";
import { type Db, underStartLock } from "./client.ts";
import { seedReferenceData } from "./reference-data.ts";
import { feedback, users } from "./schema.ts";

export const DEMO_ADMIN_EMAIL = "admin@example.invalid";

const SAMPLE_FEEDBACK = [
  {
    authorName: "Priya S.",
    city: "Pune",
    rating: 5,
    body: "I could see the full repayment schedule and every charge before I signed. The money reached my salary account the next working day.",
  },
  {
    authorName: "Rahul M.",
    city: "Lucknow",
    rating: 4,
    body: "The one-time code sign-in was quick and the EMI matched what the calculator showed. I would like evening call-back hours.",
  },
  {
    authorName: "Anjali K.",
    city: "Kochi",
    rating: 5,
    body: "A salary advance that was repaid on my salary date, with the interest shown in rupees up front. No surprises.",
  },
  {
    authorName: "Imran Q.",
    city: "Hyderabad",
    rating: 4,
    body: "Uploading documents from my phone worked first time. The Key Fact Statement was easy to read.",
  },
];

/**
 * Demo data for a fresh local installation. Idempotent: running it again
 * changes nothing. Every row it creates is marked as a sample.
 */
export async function seedDemoData(
  db: Db,
  { demoAdmin = true }: { demoAdmin?: boolean } = {},
): Promise<{ feedback: number; admin?: { email: string; password: string } }> {
  const result: { feedback: number; admin?: { email: string; password: string } } = { feedback: 0 };
  const [existing] = await db.select({ n: count() }).from(feedback).where(eq(feedback.isSample, true));
  if ((existing?.n ?? 0) === 0) {
    await db.insert(feedback).values(SAMPLE_FEEDBACK.map((f) => ({ ...f, published: true, isSample: true })));
    result.feedback = SAMPLE_FEEDBACK.length;
  }
  const [admin] = demoAdmin ? await db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_ADMIN_EMAIL)) : [{ id: "" }];
  if (!admin) {
    // A demo admin with a random password, printed once; the authenticator is set up at first sign-in.
    const password = `demo-${randomBytes(9).toString("base64url")}`;
    await db
      .insert(users)
      .values({ email: DEMO_ADMIN_EMAIL, role: "admin", name: "Demo admin", passwordHash: await hashPassword(password) });
    result.admin = { email: DEMO_ADMIN_EMAIL, password };
  }
  return result;
}

/**
 * What a start seeds: the reference data, and the demo data when `demoData` (a demo admin only
 * when `demoAdmin`). Under the start lock: machines starting together on a new database would each
 * find the risk bands and the demo rows missing and add them again (or fail on the demo admin).
 */
export function seedInstallation(db: Db, { demoData, demoAdmin }: { demoData: boolean; demoAdmin: boolean }) {
  return underStartLock(db, async (tx) => ({
    reference: await seedReferenceData(tx),
    demo: demoData ? await seedDemoData(tx, { demoAdmin }) : null,
  }));
}
