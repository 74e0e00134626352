import { getTableName } from "drizzle-orm";
import { getTableConfig, PgDialect } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { cellText, columnLabel } from "../../app/domain/privacy/export-format.ts";
import { SECTION_TITLES } from "../../app/domain/privacy/export-text.ts";
import { DATA_ITEMS } from "../../app/domain/privacy/notice.ts";
import { BORROWER_TABLES, NOT_BORROWER_TABLES, SCHEMA_TABLES } from "../../app/server/privacy/tables.server.ts";

// The registry of "Download my data" and erasure (docs/product.md "Protecting data and the service"):
// every table of the schema is classified once, so a new table cannot be left out of the download,
// or out of an erasure, without someone deciding it.
const names = (list: readonly { table: Parameters<typeof getTableName>[0] }[]) => list.map((e) => getTableName(e.table));

describe("the personal-data registry", () => {
  it("classifies every table of the schema exactly once", () => {
    const schema = SCHEMA_TABLES.map((t) => getTableName(t)).sort();
    expect(schema.length).toBeGreaterThan(70);
    const classified = [...names(BORROWER_TABLES), ...names(NOT_BORROWER_TABLES)];
    const twice = classified.filter((name, i) => classified.indexOf(name) !== i);
    expect(twice, "classified twice").toEqual([]);
    expect(
      schema.filter((name) => !classified.includes(name)),
      "in the schema but in neither BORROWER_TABLES nor NOT_BORROWER_TABLES",
    ).toEqual([]);
    expect(
      classified.filter((name) => !schema.includes(name)),
      "classified but not in the schema",
    ).toEqual([]);
  });

  it("leaves sanctions screening and suspicious-transaction reports out of the download", () => {
    const out = names(NOT_BORROWER_TABLES);
    for (const name of ["sanctions_lists", "aml_screenings", "aml_matches", "suspicious_reports", "data_breaches"])
      expect(out).toContain(name);
    for (const name of ["data_requests", "data_nominees", "data_breach_borrowers", "users", "loan_ledger"])
      expect(names(BORROWER_TABLES)).toContain(name);
    for (const entry of NOT_BORROWER_TABLES) expect(entry.why.length, getTableName(entry.table)).toBeGreaterThan(10);
  });

  it("titles each section from the one map, names real columns, and reaches rows with the borrower's id in the query", () => {
    const dialect = new PgDialect();
    const items: string[] = DATA_ITEMS.map((i) => i.id);
    expect(Object.keys(SECTION_TITLES).sort()).toEqual(names(BORROWER_TABLES).sort());
    for (const entry of BORROWER_TABLES) {
      const name = getTableName(entry.table);
      const columns = getTableConfig(entry.table).columns.map((c) => c.name);
      expect(entry.label).toBe(SECTION_TITLES[name as keyof typeof SECTION_TITLES]);
      expect(items, name).toContain(entry.item);
      for (const column of [...(entry.omit ?? []), ...(entry.files ?? []).map((f) => f.column)]) expect(columns, name).toContain(column);
      // A file kept in the row is bytes: never exported.
      for (const file of entry.files ?? []) if (file.in === "row") expect(entry.omit, name).toContain(file.column);
      const query = dialect.sqlToQuery(entry.where("00000000-0000-4000-8000-00000000000a"));
      expect(query.params, name).toContain("00000000-0000-4000-8000-00000000000a");
    }
  });

  it("never exports a secret's hash or an encrypted value", () => {
    const secret = /(_hash|_hmac|_enc)$|^(p256dh|auth)$/;
    for (const entry of BORROWER_TABLES) {
      const columns = getTableConfig(entry.table).columns.map((c) => c.name);
      expect(
        columns.filter((c) => secret.test(c) && !entry.omit?.includes(c)),
        getTableName(entry.table),
      ).toEqual([]);
    }
  });
});

describe("the download's values in words", () => {
  it("shows amounts in rupees with Indian grouping, times in India time, dates, yes and no", () => {
    expect(cellText("amount_paise", 1_00_000_00)).toBe("₹1,00,000");
    expect(cellText("details", { amountPaise: 12_345_67, kind: "payment" })).toBe("amountPaise: ₹12,345.67; kind: payment");
    expect(cellText("rate_bps", 1800)).toBe("18.00%");
    expect(cellText("created_at", "2026-03-02T05:30:00.000Z")).toBe("2 Mar 2026, 11:00 am");
    expect(cellText("due_date", "2026-04-02")).toBe("2 Apr 2026");
    expect(cellText("granted", true)).toBe("Yes");
    expect(cellText("read_at", null)).toBe("—");
    expect(cellText("body", "a\tb")).toBe("a b");
    expect(cellText("body", "x".repeat(50), 10)).toBe("xxxxxxxxxx… (shortened; the JSON file has it whole)");
    expect(columnLabel("net_monthly_income_paise")).toBe("Net monthly income");
    expect(columnLabel("no_such_column")).toBe("no_such_column");
  });
});
