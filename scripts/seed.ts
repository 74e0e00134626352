// `npm run db:seed`: migrate and seed the configured database (idempotent).
// With the embedded PGlite, stop the server first: one process per data directory.
import { migrate, openDatabase } from "../app/server/db/client.ts";
import { seedInstallation } from "../app/server/db/seed.ts";
import { loadConfig } from "../server/config.ts";

const config = loadConfig(process.env, (m) => console.warn(m));
const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
try {
  const applied = await migrate(database.db);
  const { reference, demo } = await seedInstallation(database.db, { demoData: config.seedDemoData, demoAdmin: !config.isProduction });
  console.warn(JSON.stringify({ database: database.kind, applied, reference, demo }));
} finally {
  await database.close();
}
