// `npm run storage:move`: moves the data directory's files (<DATA_DIR>/uploads/docs) into the
// bucket S3_* configures, under the same keys (no row changes), sealing any file an earlier version
// kept in clear; then the generated PDFs an earlier version kept in the database (the KFS, signed
// agreements, revised KFS) into the bucket, each row then naming its object. Safe to run twice and to
// stop half-way: a file is removed from the disk only once its object was read back and matched, and
// a row's bytes are cleared only in the update that names the object. Prints the counts; exits 1 when
// a file or PDF could not be moved. With the embedded PGlite, stop the server first (one process per
// data directory).
import { openBucket } from "../app/server/storage/s3-bucket.server.ts";
import { moveDataDirectoryToBucket } from "../app/server/storage/move.server.ts";
import { movePdfsIntoStorage } from "../app/server/storage/move-pdfs.server.ts";
import { createConfiguredStorage } from "../app/server/storage/s3-storage.server.ts";
import { migrate, openDatabase } from "../app/server/db/client.ts";
import { keyringFromHex } from "../app/server/crypto.server.ts";
import pino from "pino";
import { loadConfig } from "../server/config.ts";

const config = loadConfig(process.env, (m) => console.warn(m));
if (config.storage.kind !== "s3") {
  console.error("S3_BUCKET is not set: there is no bucket to move the files into (see README, Object storage).");
  process.exit(2);
}
const bucket = openBucket(config.storage);
try {
  // Each step moves one kind of stored data; a later one (files held in the database) joins here.
  const files = await moveDataDirectoryToBucket({
    dataDir: config.dataDir,
    bucket,
    keyring: keyringFromHex(config.encryptionKey),
    onFile: (key, outcome) => {
      if (outcome === "failed") console.warn(`${key}: not moved`);
    },
  });
  console.warn(
    `Data directory files: ${files.found} found, ${files.uploaded} uploaded, ${files.alreadyThere} already in the bucket, ` +
      `${files.sealed} kept in clear sealed on the way, ${files.removed} local copies removed, ${files.failed.length} failed.`,
  );
  for (const f of files.failed) console.error(`  ${f.key}: ${f.reason}`);
  if (files.failed.length) process.exitCode = 1;

  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, searchPath: config.databaseSchema });
  const storage = createConfiguredStorage(config, keyringFromHex(config.encryptionKey));
  try {
    // The columns the PDFs move into come with a migration: applied as the server's start would.
    await migrate(database.db);
    const pdfs = await movePdfsIntoStorage(database.db, storage, pino({ level: "warn", base: null }, pino.destination(2)));
    const moved = Object.entries(pdfs.moved);
    const total = moved.reduce((sum, [, n]) => sum + n, 0);
    console.warn(
      `PDFs kept in the database: ${total} moved${moved.length ? ` (${moved.map(([table, n]) => `${table} ${n}`).join(", ")})` : ""}, ` +
        `${pdfs.movedElsewhere} moved by another run, ${pdfs.mismatched} not matching their recorded hash (left in their rows).`,
    );
    if (pdfs.mismatched) process.exitCode = 1;
  } finally {
    storage.close();
    await database.close();
  }
} finally {
  bucket.close();
}
