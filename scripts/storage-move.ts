// `npm run storage:move`: moves the data directory's files (<DATA_DIR>/uploads/docs) into the
// bucket S3_* configures, under the same keys (no row changes), sealing any file an earlier version
// kept in clear. Safe to run twice and to stop half-way: a file is removed from the disk only once
// its object was read back and matched. Prints the counts; exits 1 when a file could not be moved.
import { openBucket } from "../app/server/storage/s3-bucket.server.ts";
import { moveDataDirectoryToBucket } from "../app/server/storage/move.server.ts";
import { keyringFromHex } from "../app/server/crypto.server.ts";
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
} finally {
  bucket.close();
}
