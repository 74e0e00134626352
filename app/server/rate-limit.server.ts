import type { AppServices } from "../context.ts";
import { sql } from "drizzle-orm";
import type { Config } from "../../server/config.ts";
import { rateLimitCounters } from "./db/schema.ts";

export interface RateLimit {
  limit: number;
  windowMs: number;
}

/** Every rate limit of the product, in one place (counted in the database, so they hold across processes). */
export function rateLimits(config: Config) {
  return {
    contact: { limit: config.limits.contactPerHour, windowMs: 60 * 60 * 1000 },
  } satisfies Record<string, RateLimit>;
}

export type RateLimitAction = keyof ReturnType<typeof rateLimits>;

export interface RateLimitResult {
  allowed: boolean;
  count: number;
  /** When the current window ends. */
  resetAt: Date;
}

/** Counts one attempt of `action` by `key` in the current fixed window, atomically. */
export async function hitRateLimit(
  { db, now }: Pick<AppServices, "db" | "now">,
  { action, key, limit: { limit, windowMs } }: { action: string; key: string; limit: RateLimit },
): Promise<RateLimitResult> {
  const windowStart = new Date(Math.floor(now().getTime() / windowMs) * windowMs);
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
