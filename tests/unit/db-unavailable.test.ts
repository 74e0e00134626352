import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "../../app/server/db/unavailable.ts";

const refused = () => Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });

describe("telling a database out of reach from other failures", () => {
  it("counts a refused or cut connection to PostgreSQL, however deeply wrapped", () => {
    expect(isDatabaseUnavailable(refused())).toBe(true);
    expect(isDatabaseUnavailable(new Error("Failed query", { cause: refused() }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("the database system is shutting down"), { code: "57P01" }))).toBe(true);
  });

  it("does not count an outside provider that could not be reached, nor a bug", () => {
    expect(isDatabaseUnavailable(new TypeError("fetch failed", { cause: refused() }))).toBe(false);
    expect(isDatabaseUnavailable(new Error("Payment order failed", { cause: new TypeError("fetch failed", { cause: refused() }) }))).toBe(
      false,
    );
    expect(isDatabaseUnavailable(Object.assign(new Error('duplicate key value violates unique constraint "x"'), { code: "23505" }))).toBe(
      false,
    );
  });
});
