import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { auditLog, holidays } from "../../app/server/db/schema.ts";
import { signedInStaff } from "../helpers/applications.ts";
import { postForm, toastOf } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// The holiday calendar (docs/product.md "Holidays"): HOLIDAYS until the first edit, then the table
// (seeded with those dates); every process reads it again after a change.
let app: TestServer;
let admin: { cookie: string; userId: string };
beforeAll(async () => {
  app = await startTestServer({ HOLIDAYS: "2026-01-26,2026-08-15" });
  admin = await signedInStaff(app, "admin", "Anil Mehta");
});
afterAll(async () => {
  await app?.stop();
});

const html = async (res: Response) => (await res.text()).replaceAll("<!-- -->", "").replaceAll("&amp;", "&").replaceAll("&#x27;", "'");
const page = async () => html(await app.get("/admin/holidays", { headers: { Cookie: admin.cookie } }));
const act = (fields: Record<string, string>) => postForm(app, "/admin/holidays", fields, { cookie: admin.cookie });

describe("holidays", () => {
  it("starts from HOLIDAYS, and from the first edit the table is the calendar, audited and live", async () => {
    const before = await page();
    expect(before).toContain("comes from HOLIDAYS in the configuration");
    expect(before).toContain("26 Jan 2026");
    expect(app.services.config.holidays).toEqual(["2026-01-26", "2026-08-15"]);

    const added = await act({ intent: "add", date: "2026-11-24", name: "Guru Tegh Bahadur's Martyrdom Day" });
    expect(toastOf(added)).toMatch(/24 Nov 2026 is a holiday now/);
    expect(app.services.config.holidays).toEqual(["2026-01-26", "2026-08-15", "2026-11-24"]);
    const after = await page();
    expect(after).toContain("This list is the calendar");
    expect(after).toContain("Guru Tegh Bahadur's Martyrdom Day");
    expect(after).toContain("Added by Anil Mehta");

    expect(toastOf(await act({ intent: "remove", date: "2026-08-15" }))).toMatch(/15 Aug 2026 is a working day again/);
    expect(app.services.config.holidays).toEqual(["2026-01-26", "2026-11-24"]);
    expect(toastOf(await act({ intent: "remove", date: "2026-08-15" }))).toMatch(/not in the calendar/);
    const trail = await app.services.db.select().from(auditLog).where(eq(auditLog.subjectType, "holiday")).orderBy(auditLog.id);
    expect(trail.map((a) => [a.action, a.subjectId, a.actorUserId])).toEqual([
      ["holiday.added", "2026-11-24", admin.userId],
      ["holiday.removed", "2026-08-15", admin.userId],
    ]);

    // Another process changed it: this one reads it again when told.
    await app.services.db.insert(holidays).values({ date: "2026-12-25", name: "Christmas", addedAt: new Date() });
    await app.services.realtime.publish({ type: "holidays_changed" });
    await vi.waitFor(() => expect(app.services.config.holidays).toContain("2026-12-25"), { timeout: 5_000 });
  });

  it("refuses a date that is not one, next to the field", async () => {
    for (const date of ["2026-02-30", "garbage", "1999-12-31"]) {
      const res = await act({ intent: "add", date, name: "Something" });
      expect(res.status).toBe(400);
      expect(await html(res)).toMatch(/That is not a date\.|Choose the date\.|between 2000 and 2099/);
    }
    const res = await act({ intent: "add", date: "2026-10-20", name: "" });
    expect(await html(res)).toContain("Name the holiday.");
    expect(app.services.config.holidays).not.toContain("2026-10-20");
  });
});
