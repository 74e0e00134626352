import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** Where this run's migrated and seeded PGlite data directory is made, once, by the first test server (tests/helpers/server.ts). */
    pgliteTemplateRoot: string;
  }
}

/** One template directory per run of the suite, removed at its end. */
export default function setup(project: TestProject) {
  const root = mkdtempSync(path.join(tmpdir(), "sugam-template-"));
  project.provide("pgliteTemplateRoot", root);
  return () => rmSync(root, { recursive: true, force: true });
}
