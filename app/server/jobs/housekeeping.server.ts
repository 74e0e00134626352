import { lt } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import { presenceConnections, verificationSends, verifications } from "../db/schema.ts";
import { STALE_MS } from "../realtime/hub.server.ts";

const DAY = 86_400_000;
/** A one-time code's send is kept this long after it counted towards the hourly limits (for questions about it). */
export const SENDS_KEPT_DAYS = 30;

/**
 * Hourly tidying of rows nothing reads any more: one-time codes (and enrolment
 * links) a day after they expired, records of codes sent once they are older
 * than 30 days, and open-page rows a process left behind when it died. Safe to
 * run twice or on two processes at once.
 */
export async function housekeeping({ db, now }: Pick<AppServices, "db" | "now">) {
  const at = now().getTime();
  const codes = await db
    .delete(verifications)
    .where(lt(verifications.expiresAt, new Date(at - DAY)))
    .returning({ target: verifications.target });
  const sends = await db
    .delete(verificationSends)
    .where(lt(verificationSends.sentAt, new Date(at - SENDS_KEPT_DAYS * DAY)))
    .returning({ id: verificationSends.id });
  const pages = await db
    .delete(presenceConnections)
    .where(lt(presenceConnections.heartbeatAt, new Date(at - 10 * STALE_MS)))
    .returning({ id: presenceConnections.id });
  return { codes: codes.length, sends: sends.length, pages: pages.length };
}
