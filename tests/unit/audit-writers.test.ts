import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// One writer of audit rows (docs/ARCHITECTURE.md "The shape of an operation"): `audit()` in
// app/server/audit.server.ts. No other source file inserts into audit_log itself.
const root = path.resolve(import.meta.dirname, "../..");
const WRITER = "app/server/audit.server.ts";

function sourceFiles(dir: string): string[] {
  if (!existsSync(path.join(root, dir))) return [];
  return readdirSync(path.join(root, dir)).flatMap((name) => {
    const rel = path.join(dir, name);
    if (statSync(path.join(root, rel)).isDirectory()) return sourceFiles(rel);
    return /\.(ts|tsx)$/.test(name) && !name.endsWith(".d.ts") ? [rel] : [];
  });
}

/** An insert into the audit log: through Drizzle's table, or in SQL. */
const INSERTS = /\binsert\(\s*(?:\w+\.)?auditLog\b|\binsert\s+into\s+"?audit_log\b/i;

describe("audit rows", () => {
  it(`are written only by audit() in ${WRITER}`, () => {
    const files = [...sourceFiles("app"), ...sourceFiles("server"), ...sourceFiles("scripts"), "server.ts"];
    const writers = files.filter((file) => INSERTS.test(readFileSync(path.join(root, file), "utf8")));
    expect(writers).toEqual([WRITER]);
  });
});
