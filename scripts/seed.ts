// `npm run db:seed`: migrate and seed the configured database (idempotent).
// With the embedded PGlite, stop the server first: one process per data directory.
import { migrate, openDatabase } from "../app/server/db/client.ts";
import { seedReferenceData } from "../app/server/db/reference-data.ts";
import { seedDemoData } from "../app/server/db/seed.ts";
import { loadConfig } from "../server/config.ts";

const config = loadConfig(process.env, (m) => console.warn(m));
const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
try {
  const applied = await migrate(database.db);
  const reference = await seedReferenceData(database.db);
  const demo = config.seedDemoData ? await seedDemoData(database.db, { demoAdmin: !config.isProduction }) : null;
  console.warn(JSON.stringify({ database: database.kind, applied, reference, demo }));
} finally {
  await database.close();
}
