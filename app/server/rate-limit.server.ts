import type { AppServices } from "../context.ts";
import { and, eq, sql } from "drizzle-orm";
import type { Config } from "../../server/config.ts";
import { rateLimitCounters } from "./db/schema.ts";

export interface RateLimit {
  limit: number;
  windowMs: number;
}

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/**
 * Every rate limit of the product, in one place (counted in the database, so they hold across
 * processes). The OTP limits live with the codes (app/server/otp/otp.server.ts); how many tickets
 * a borrower may have open at once is counted from the tickets themselves (`openTicketsPerBorrower`).
 */
export function rateLimits(config: Config) {
  return {
    /** Contact-form messages from one client address. */
    contact: { limit: config.limits.contactPerHour, windowMs: HOUR_MS },
    /** Acknowledgements e-mailed to one address by the contact form (the message is taken all the same). */
    contactEmail: { limit: config.limits.contactEmailsPerAddressPerDay, windowMs: DAY_MS },
    /** New tickets one borrower raises (beyond it, what they write goes on an open ticket). */
    ticket: { limit: config.limits.ticketsPerBorrowerPerDay, windowMs: DAY_MS },
    /** "Download my data" by one borrower, JSON and PDF together (each builds the whole file). */
    dataExport: { limit: 10, windowMs: HOUR_MS },
  } satisfies Record<string, RateLimit>;
}

export type RateLimitAction = keyof ReturnType<typeof rateLimits>;

export interface RateLimitResult {
  allowed: boolean;
  count: number;
  /** When the current window ends. */
  resetAt: Date;
}

const windowOf = (now: Date, windowMs: number) => new Date(Math.floor(now.getTime() / windowMs) * windowMs);

/** How many attempts of `action` by `key` the current window holds, without counting one. */
export async function peekRateLimit(
  { db, now }: Pick<AppServices, "db" | "now">,
  { action, key, limit: { limit, windowMs } }: { action: string; key: string; limit: RateLimit },
): Promise<RateLimitResult> {
  const windowStart = windowOf(now(), windowMs);
  const [row] = await db
    .select({ count: rateLimitCounters.count })
    .from(rateLimitCounters)
    .where(and(eq(rateLimitCounters.action, action), eq(rateLimitCounters.key, key), eq(rateLimitCounters.windowStart, windowStart)));
  const count = row?.count ?? 0;
  return { allowed: count < limit, count, resetAt: new Date(windowStart.getTime() + windowMs) };
}

/** Counts one attempt of `action` by `key` in the current fixed window, atomically. */
export async function hitRateLimit(
  { db, now }: Pick<AppServices, "db" | "now">,
  { action, key, limit: { limit, windowMs } }: { action: string; key: string; limit: RateLimit },
): Promise<RateLimitResult> {
  const windowStart = windowOf(now(), windowMs);
  const [row] = await db
    .insert(rateLimitCounters)
    .values({ action, key, windowStart, count: 1 })
    .onConflictDoUpdate({
      target: [rateLimitCounters.action, rateLimitCounters.key, rateLimitCounters.windowStart],
      set: { count: sql`${rateLimitCounters.count} + 1` },
    })
    .returning({ count: rateLimitCounters.count });
  const count = row?.count ?? 1;
  return { allowed: count <= limit, count, resetAt: new Date(windowStart.getTime() + windowMs) };
}
