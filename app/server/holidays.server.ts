// The holiday calendar (docs/product.md "Holidays"): `HOLIDAYS` from configuration until an
// administrator first edits it, then the `holidays` table (seeded with those dates). Working days,
// KFS validity and the assumed disbursal date read `config.holidays`, which this module keeps
// current in place on every process.
import { asc, eq } from "drizzle-orm";
import type { AppServices, Client } from "../context.ts";
import type { StaffRole } from "../domain/roles.ts";
import type { Db } from "./db/client.ts";
import { audit } from "./audit.server.ts";
import { holidays, settings, users } from "./db/schema.ts";

type Services = Pick<AppServices, "db" | "now" | "config" | "realtime">;
const EDITED = "holidays_edited_at";

async function edited(db: Db) {
  const [row] = await db.select({ key: settings.key }).from(settings).where(eq(settings.key, EDITED));
  return Boolean(row);
}

/** Reads the calendar and puts it into `config.holidays` (in place: every reader sees it). */
export async function refreshHolidays({ db, config }: Pick<AppServices, "db" | "config">) {
  const dates = (await edited(db))
    ? (await db.select({ date: holidays.date }).from(holidays).orderBy(asc(holidays.date))).map((h) => h.date)
    : [...config.configuredHolidays];
  config.holidays.splice(0, config.holidays.length, ...dates);
  return dates;
}

/** The calendar for the admin page: each date with its name, and where it comes from. */
export async function holidayCalendar({ db, config }: Pick<AppServices, "db" | "config">) {
  if (await edited(db)) {
    const rows = await db
      .select({ date: holidays.date, name: holidays.name, addedAt: holidays.addedAt, addedBy: users.name })
      .from(holidays)
      .leftJoin(users, eq(users.id, holidays.addedBy))
      .orderBy(asc(holidays.date));
    return { source: "table" as const, rows };
  }
  const seed = config.configuredHolidays;
  return { source: "configuration" as const, rows: seed.map((date) => ({ date, name: "From HOLIDAYS", addedAt: null, addedBy: null })) };
}

type Editor = { staff: { id: string; role: StaffRole }; client: Client };

async function change(services: Services, { staff, client }: Editor, apply: (tx: Db, at: Date) => Promise<Record<string, unknown> | null>) {
  const at = services.now();
  const done = await services.db.transaction(async (tx) => {
    // The first edit copies the configured dates into the table; from then on the table is the calendar.
    const [flag] = await tx.select({ key: settings.key }).from(settings).where(eq(settings.key, EDITED)).for("update");
    if (!flag) {
      const seed = services.config.configuredHolidays;
      if (seed.length)
        await tx
          .insert(holidays)
          .values(seed.map((date) => ({ date, name: "From HOLIDAYS", addedAt: at })))
          .onConflictDoNothing();
      await tx.insert(settings).values({ key: EDITED, value: at.toISOString(), updatedAt: at }).onConflictDoNothing();
    }
    const details = await apply(tx, at);
    if (!details) return false;
    await audit(
      { db: tx },
      { by: staff, client, at, action: String(details.action), subject: { type: "holiday", id: String(details.date) }, details },
    );
    return true;
  });
  await refreshHolidays(services);
  await services.realtime.publish({ type: "holidays_changed" }).catch(() => {});
  return done;
}

export function addHoliday(services: Services, editor: Editor, { date, name }: { date: string; name: string }) {
  return change(services, editor, async (tx, at) => {
    const [added] = await tx
      .insert(holidays)
      .values({ date, name, addedBy: editor.staff.id, addedAt: at })
      .onConflictDoUpdate({ target: holidays.date, set: { name, addedBy: editor.staff.id, addedAt: at } })
      .returning({ date: holidays.date });
    return added ? { action: "holiday.added", date, name } : null;
  });
}

export function removeHoliday(services: Services, editor: Editor, { date }: { date: string }) {
  return change(services, editor, async (tx) => {
    const [removed] = await tx.delete(holidays).where(eq(holidays.date, date)).returning({ name: holidays.name });
    return removed ? { action: "holiday.removed", date, name: removed.name } : null;
  });
}
