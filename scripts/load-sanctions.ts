// `npm run sanctions:load -- <list> <file>`: loads a sanctions list file as the new version of its
// list (un_consolidated: the UN's consolidated XML; uapa_51a, wmd_12a: the CSV of docs/decisions/0007),
// then screens every borrower against the lists in force. Prints what it did; exits 1 on a bad file.
// With the embedded PGlite, stop the server first: one process per data directory.
import { readFileSync } from "node:fs";
import path from "node:path";
import { LIST_SOURCES, type ListSource } from "../app/domain/aml/sanctions.ts";
import { loadList } from "../app/server/aml/lists.server.ts";
import { rescreenPart } from "../app/server/aml/screen.server.ts";
import { migrate, openDatabase } from "../app/server/db/client.ts";
import { loadConfig } from "../server/config.ts";

const [source, file] = process.argv.slice(2);
if (!source || !file || !(LIST_SOURCES as readonly string[]).includes(source)) {
  console.error(`usage: npm run sanctions:load -- <${LIST_SOURCES.join("|")}> <file>`);
  process.exit(2);
}
const config = loadConfig(process.env, (m) => console.warn(m));
const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
try {
  await migrate(database.db);
  const services = { db: database.db, now: () => new Date() };
  const loaded = await loadList(services, {
    source: source as ListSource,
    fileName: path.basename(file),
    text: readFileSync(file, "utf8"),
    by: null,
  });
  if (!loaded.ok && loaded.reason === "unreadable") {
    console.error(`Nothing was loaded: ${loaded.message}`);
    process.exitCode = 1;
  } else {
    console.warn(loaded.ok ? `Loaded ${loaded.persons} entries as list version ${loaded.listId}.` : "This file was loaded already.");
    let after: string | null = null;
    let parts = 0;
    do {
      after = await rescreenPart(services, after);
      parts += 1;
    } while (after);
    console.warn(`Screened every borrower against the lists in force (${parts} part${parts === 1 ? "" : "s"}).`);
  }
} finally {
  await database.close();
}
