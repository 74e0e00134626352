import { randomUUID } from "node:crypto";
import { rm } from "node:fs/promises";
import path from "node:path";
import type { Config } from "../../../server/config.ts";
import type { Keyring } from "../crypto.server.ts";
import { type Bucket, openBucket } from "./s3-bucket.server.ts";
import { fileKeyring, openStream } from "./sealed-stream.server.ts";
import { createLocalStorage, type FileStorage, isStorageKey, localPath } from "./storage.server.ts";

/**
 * Files in an S3-compatible bucket, sealed exactly as in the data directory (an object's bytes are
 * the file's bytes on disk, so a file moved from one to the other reads the same). An upload is
 * received into this machine's `<tmpRoot>/tmp` as before, within its request; `commit` streams that
 * sealed temporary file to the bucket (one PutObject with its length) and removes it; reads stream
 * the object through the opener. Nothing is held whole in memory either way.
 */
export function createS3Storage(bucket: Bucket, tmpRoot: string, keyring: Keyring): FileStorage {
  const keys = fileKeyring(keyring);
  // Temporary objects are the data directory's: writeTemp, their reads, removal and cleaning.
  const local = createLocalStorage(tmpRoot, keyring);
  const docKey = (key: string) => {
    if (!isStorageKey(key)) throw new Error("bad storage key");
    return key.startsWith("docs/");
  };

  return {
    writeTemp: local.writeTemp,
    cleanTemp: local.cleanTemp,
    async commit(tempKey) {
      if (docKey(tempKey)) throw new Error("storage: only a temporary object can be committed");
      const file = localPath(tmpRoot, tempKey);
      const key = `docs/${randomUUID()}`;
      // The object first (a failed PutObject stores nothing), then the temporary file goes either way:
      // a commit that failed leaves nothing behind, and the caller writes no row.
      try {
        await bucket.putFile(key, file);
      } finally {
        await rm(file, { force: true });
      }
      return key;
    },
    read(key) {
      if (!docKey(key)) return local.read(key);
      const opened = openStream(keys);
      bucket.get(key).then(
        (body) => {
          body.on("error", (error) => opened.destroy(error));
          opened.on("close", () => body.destroy());
          body.pipe(opened);
        },
        (error: unknown) => opened.destroy(error as Error),
      );
      return opened;
    },
    async remove(key) {
      if (docKey(key)) await bucket.remove(key);
      else await local.remove(key);
    },
    async exists(key) {
      if (docKey(key)) return (await bucket.size(key)) !== null;
      return local.exists(key);
    },
    // Objects are written sealed by this code only; a data directory's clear files are sealed on
    // their way into the bucket (npm run storage:move).
    sealLegacyFiles: async () => 0,
    list: () => bucket.list("docs/"),
    async check(timeoutMs) {
      await Promise.all([bucket.reachable(timeoutMs), local.check(timeoutMs)]);
    },
    close() {
      bucket.close();
    },
  };
}

/** The configured storage: the bucket when S3_BUCKET is set, else the data directory's uploads/. */
export function createConfiguredStorage(config: Pick<Config, "storage" | "dataDir">, keyring: Keyring): FileStorage {
  const root = path.join(config.dataDir, "uploads");
  if (config.storage.kind === "s3") return createS3Storage(openBucket(config.storage), root, keyring);
  return createLocalStorage(root, keyring);
}
