// What staff pages show of CKYC (docs/product.md "CKYC"): one borrower's record, and the 10-day list.
import { and, asc, desc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import { type CkycState, ckycTiming } from "../../domain/ckyc.ts";
import type { IsoDate } from "../../domain/loan-math.ts";
import { borrowerProfiles, ckycRecords, loanApplications, users } from "../db/schema.ts";
import type { CkycRow } from "./rows.server.ts";

const stateOf = (r: CkycRow): CkycState => ({
  status: r.status,
  ckycNumber: r.ckycNumber,
  dueBy: r.dueBy,
  searchedAt: r.searchedAt?.toISOString() ?? null,
  uploadedAt: r.uploadedAt?.toISOString() ?? null,
  attempts: r.attempts,
  lastError: r.lastError,
});

/** One borrower's record at the registry as it stands here; null when nothing was searched or uploaded yet. */
export async function ckycStateOf({ db }: Pick<AppServices, "db">, userId: string): Promise<CkycState | null> {
  const [row] = await db.select().from(ckycRecords).where(eq(ckycRecords.userId, userId));
  return row ? stateOf(row) : null;
}

const LIST_SIZE = 200;
const RECENT_SIZE = 50;

const listed = {
  record: ckycRecords,
  name: borrowerProfiles.fullName,
  mobile: users.mobile,
  loanNumber: loanApplications.loanNumber,
  disbursalDate: loanApplications.disbursalDate,
};

/**
 * The 10-day list: uploads still to be made (pending or failed), the earliest due first (so the late
 * ones lead), each with its days left or late; and the latest records uploaded or found, with numbers.
 */
export async function ckycWorklist({ db }: Pick<AppServices, "db">, { today }: { today: IsoDate }) {
  const base = () =>
    db
      .select(listed)
      .from(ckycRecords)
      .innerJoin(users, eq(users.id, ckycRecords.userId))
      .leftJoin(borrowerProfiles, eq(borrowerProfiles.userId, ckycRecords.userId))
      .leftJoin(loanApplications, eq(loanApplications.id, ckycRecords.applicationId));
  const [due, recent] = await Promise.all([
    base()
      .where(and(inArray(ckycRecords.status, ["pending", "failed"]), isNotNull(ckycRecords.dueBy)))
      .orderBy(asc(ckycRecords.dueBy), asc(ckycRecords.createdAt))
      .limit(LIST_SIZE),
    base()
      .where(inArray(ckycRecords.status, ["uploaded", "found"]))
      .orderBy(desc(sql`coalesce(${ckycRecords.uploadedAt}, ${ckycRecords.searchedAt})`))
      .limit(RECENT_SIZE),
  ]);
  const rowOf = (r: (typeof due)[number]) => ({
    userId: r.record.userId,
    name: r.name,
    mobile: r.mobile,
    loanNumber: r.loanNumber,
    disbursalDate: r.disbursalDate,
    ...stateOf(r.record),
    nextAttemptAt: r.record.nextAttemptAt?.toISOString() ?? null,
  });
  return {
    due: due.map((r) => {
      const row = rowOf(r);
      return { ...row, timing: ckycTiming(row.dueBy ?? today, today) };
    }),
    recent: recent.map(rowOf),
  };
}
