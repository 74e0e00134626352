import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { emailOutboxDir } from "../../app/server/email/email.server.ts";
import { notifications } from "../../app/server/db/schema.ts";
import type { NotificationEvent } from "../../app/domain/notifications.ts";
import type { TestServer } from "./server.ts";

/** Every e-mail the local outbox holds, as raw RFC 822 text. */
export function readEmails(dataDir: string): { file: string; raw: string }[] {
  const dir = emailOutboxDir(dataDir);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".eml"))
    .map((file) => ({ file, raw: readFileSync(path.join(dir, file), "utf8") }));
}

/** The e-mails written for one notice (by its X-Notice-Id header). */
export const emailsFor = (dataDir: string, noticeId: string) =>
  readEmails(dataDir).filter((m) => new RegExp(`^X-Notice-Id: ${noticeId}\\r?$`, "mi").test(m.raw));

/** A borrower's notices of one event. */
export const noticesOf = (app: TestServer, userId: string, event: NotificationEvent) =>
  app.services.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.event, event)));
