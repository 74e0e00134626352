// The planner's statistics kept up to date by a long run itself. The night's first run over a book taken
// over fills and rewrites whole tables (every loan's figures, a case for each loan past due) in an hour;
// planned on statistics from before it, later pages read every open case or every loan past due to find
// their hundred (README, "The night's run at scale"). PostgreSQL's
// autovacuum would analyze them on its own rounds, when it is on; the run does not rely on it.
import { sql } from "drizzle-orm";
import type { AppServices } from "../../context.ts";

/** The tables the night's run writes most. */
export const NIGHT_TABLES = [
  "loan_accounts",
  "collection_cases",
  "promises_to_pay",
  "collection_tasks",
  "dunning_sends",
  "loan_ledger",
  "journal_entries",
  "journal_lines",
  "book_positions",
  "mandate_debits",
  "notifications",
] as const;

/**
 * Analyzes those of `tables` (in the current schema) changed since their last analyze by more than
 * autovacuum's own default threshold: 50 rows and a tenth of the table. Returns their names.
 */
export async function refreshStatistics({ db }: Pick<AppServices, "db">, tables: readonly string[] = NIGHT_TABLES): Promise<string[]> {
  const result = (await db.execute(sql`
    select relname as name from pg_stat_user_tables
    where schemaname = current_schema() and relname = any(${sql`array[${sql.join(
      tables.map((t) => sql`${t}`),
      sql`, `,
    )}]::text[]`})
      and n_mod_since_analyze > 50 + 0.1 * greatest(n_live_tup, 0)`)) as unknown as { rows: { name: string }[] };
  const stale = result.rows.map((r) => r.name);
  for (const name of stale) await db.execute(sql`analyze ${sql.identifier(name)}`);
  return stale;
}
