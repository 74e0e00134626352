// The quick start's progress (one row per borrower) and its funnel events.
// Every query carries the owner's id; the answers themselves go to the
// profile tables (kyc/*.server.ts).
import { eq, type SQLWrapper, sql } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import type { LoanKind } from "../../domain/loans/application.ts";
import { type FunnelEvent, OFFER_STEP, quickStepPath, unfinishedStep } from "../../domain/quick-start.ts";
import { funnelEvents, quickStarts } from "../db/schema.ts";
import { jsonColumns, userColumnsReader } from "../db/json-rows.ts";

type Services = Pick<AppServices, "db">;
export type QuickStart = typeof quickStarts.$inferSelect;

/** How far the borrower's quick start got (null when never begun), for the dashboard. */
export async function quickStartProgress({ db }: Services, userId: string) {
  const row = await progressOf(db, userId);
  return quickStartFromJson(row?.quickStart);
}
const progressOf = userColumnsReader("quick_start_progress", (userId) => ({ quickStart: quickStartColumn(userId) }));

/**
 * `quickStartProgress` as JSON (a subquery on `userId`, the owner's id): the dashboard reads it in
 * its one statement. `quickStartFromJson` reads it.
 */
export const quickStartColumn = (userId: SQLWrapper) => sql`(select ${progressJson.sql} from quick_starts q where q.user_id = ${userId})`;
const progressJson = jsonColumns(quickStarts, "q", ["completedSteps", "continuedAt"]);

/** The progress of `quickStartColumn`; null when never begun. */
export const quickStartFromJson = (json: unknown) => (json ? progressJson.decode(json as Record<string, unknown>) : null);

/**
 * Where a sign-in lands when no page was asked for (docs/product.md "Signing in, sessions and
 * staff"): the next step of a quick start begun and not yet continued, otherwise the dashboard.
 */
export async function signInLanding(services: Services, userId: string) {
  const step = unfinishedStep(await quickStartProgress(services, userId));
  return step === null ? "/User/Dashboard" : quickStepPath(step);
}

/** The borrower's quick start, begun on first sight. */
export async function quickStartOf({ db }: Services, userId: string): Promise<QuickStart> {
  const [row] = await db.select().from(quickStarts).where(eq(quickStarts.userId, userId));
  if (row) return row;
  await db.insert(quickStarts).values({ userId }).onConflictDoNothing();
  const [created] = await db.select().from(quickStarts).where(eq(quickStarts.userId, userId));
  return created as QuickStart;
}

/** One funnel event of the borrower's quick start (the reports count them). */
export async function recordFunnel(
  { db }: Services,
  input: {
    userId: string;
    event: FunnelEvent;
    step: number | null;
    product?: LoanKind | null;
    details?: Record<string, unknown>;
    at?: Date;
  },
) {
  await db.insert(funnelEvents).values({
    userId: input.userId,
    event: input.event,
    step: input.step,
    product: input.product ?? null,
    details: input.details ?? null,
    ...(input.at ? { createdAt: input.at } : {}),
  });
}

/** The offer must be seen (and taken) again: the borrower's answers or the products changed since. */
export async function backToOffer({ db, now }: Pick<AppServices, "db" | "now">, userId: string) {
  await db
    .update(quickStarts)
    .set({ completedSteps: sql`least(${quickStarts.completedSteps}, ${OFFER_STEP})`, continuedAt: null, updatedAt: now() })
    .where(eq(quickStarts.userId, userId));
}
