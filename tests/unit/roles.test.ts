import { describe, expect, it } from "vitest";
import { can, PERMISSIONS, STAFF_ROLES, type Permission } from "../../app/domain/roles.ts";

describe("staff roles (docs/product.md, Staff roles; PRODUCT.md §7, both tables)", () => {
  it("match the permission table, row by row", () => {
    const table = Object.fromEntries(
      (Object.keys(PERMISSIONS) as Permission[]).map((p) => [p, STAFF_ROLES.filter((r) => can(r, p)).join(" ")]),
    );
    expect(table).toEqual({
      "applications.view": "credit operations support admin",
      "applications.decide": "credit admin",
      "payouts.manage": "operations admin",
      "payments.manage": "operations admin",
      "loans.view": "credit operations support finance compliance admin",
      "collections.manage": "operations support admin",
      "borrowers.view": "credit operations support finance compliance admin",
      "borrowers.manage": "credit operations support admin",
      "tickets.manage": "support admin",
      "reports.view": "credit operations support admin",
      "audit.view": "credit operations support finance compliance admin",
      "audit.export": "compliance admin",
      "settings.manage": "admin",
      "loans.write_off": "admin",
      "policy.view": "credit compliance admin",
      "policy.manage": "admin",
      "policy.deviate": "credit admin",
      "books.view": "finance compliance admin",
      "books.manage": "finance admin",
      "bureau.view": "finance compliance admin",
      "bureau.manage": "finance admin",
      "ckyc.view": "operations compliance admin",
      "ckyc.manage": "compliance admin",
      "aml.view": "compliance admin",
      "aml.manage": "compliance admin",
      "privacy.view": "compliance admin",
      "privacy.manage": "compliance admin",
    });
  });

  it("give a borrower, or an unknown role, nothing", () => {
    for (const p of Object.keys(PERMISSIONS) as Permission[]) {
      expect(can("borrower", p)).toBe(false);
      expect(can("staff" as never, p)).toBe(false);
    }
  });
});
