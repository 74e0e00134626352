import { and, eq } from "drizzle-orm";
import type { Language } from "../../i18n/languages.ts";
import type { Db } from "../db/client.ts";
import { users } from "../db/schema.ts";

/** A borrower's language for messages (SMS, e-mail, push, in-app), chosen with the switch in the header. Staff accounts keep English. */
export async function setBorrowerLanguage(db: Db, userId: string, language: Language): Promise<void> {
  await db
    .update(users)
    .set({ language })
    .where(and(eq(users.id, userId), eq(users.role, "borrower")));
}
