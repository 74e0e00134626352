import { createHash, randomUUID } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { open, readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Keyring } from "../crypto.server.ts";
import type { Bucket } from "./s3-bucket.server.ts";
import { fileKeyring, isSealed, openStream, SEALED_MAGIC, sealStream } from "./sealed-stream.server.ts";
import { isStorageKey } from "./storage.server.ts";

export interface MoveReport {
  /** Files found under <DATA_DIR>/uploads/docs. */
  found: number;
  /** Put into the bucket by this run. */
  uploaded: number;
  /** Already in the bucket with the same size (an earlier run stopped before removing the local copy). */
  alreadyThere: number;
  /** Kept in clear by an earlier version, sealed on the way. */
  sealed: number;
  /** Local copies removed, each after its object was read back and matched. */
  removed: number;
  /** Left where they were, with why. */
  failed: { key: string; reason: string }[];
}

/** The number of files still in the data directory's uploads/docs (zero once moved). */
export async function filesLeftOnDisk(dataDir: string): Promise<number> {
  const names = await readdir(path.join(dataDir, "uploads", "docs")).catch(() => []);
  return names.filter((name) => isStorageKey(`docs/${name}`)).length;
}

/** The SHA-256 of a sealed stream's opened bytes: a file's identity whatever salt sealed it. */
async function openedSha256(sealed: Readable, keys: Keyring): Promise<string> {
  const hash = createHash("sha256");
  await pipeline(sealed, openStream(keys), async (opened: AsyncIterable<Buffer>) => {
    for await (const chunk of opened) hash.update(chunk);
  });
  return hash.digest("hex");
}

async function startsSealed(file: string): Promise<boolean> {
  const handle = await open(file, "r");
  try {
    const head = Buffer.alloc(SEALED_MAGIC.length);
    await handle.read(head, 0, head.length, 0);
    return isSealed(head);
  } finally {
    await handle.close();
  }
}

/**
 * Moves the data directory's files (`<dataDir>/uploads/docs/*`) into `bucket` under the same keys,
 * so the rows naming them need no change. Each file on its own: a file kept in clear is sealed on
 * the way (into uploads/tmp); its object is put unless one of the same size is there already; the
 * object is read back, opened and matched with the local file's opened bytes; only then is the
 * local copy removed. Stopped at any point, it runs again from where it was.
 */
export async function moveDataDirectoryToBucket(options: {
  dataDir: string;
  bucket: Bucket;
  keyring: Keyring;
  onFile?: (key: string, outcome: "uploaded" | "already there" | "failed") => void;
}): Promise<MoveReport> {
  const { bucket } = options;
  const keys = fileKeyring(options.keyring);
  const root = path.join(options.dataDir, "uploads");
  const report: MoveReport = { found: 0, uploaded: 0, alreadyThere: 0, sealed: 0, removed: 0, failed: [] };
  const names = await readdir(path.join(root, "docs")).catch(() => [] as string[]);
  for (const name of names) {
    const key = `docs/${name}`;
    if (!isStorageKey(key)) continue;
    report.found++;
    const file = path.join(root, key);
    let temp: string | null = null;
    try {
      let source = file;
      if (!(await startsSealed(file))) {
        temp = path.join(root, "tmp", randomUUID());
        await pipeline(createReadStream(file), sealStream(keys), createWriteStream(temp, { flags: "wx", mode: 0o600 }));
        source = temp;
        report.sealed++;
      }
      // A local file that does not open (damaged) stays, and is reported.
      const expected = await openedSha256(createReadStream(source), keys);
      const { size } = await stat(source);
      const matches = async () => (await bucket.size(key)) === size && (await openedSha256(await bucket.get(key), keys)) === expected;
      let outcome: "uploaded" | "already there";
      if (await matches().catch(() => false)) {
        outcome = "already there";
      } else {
        await bucket.putFile(key, source);
        if (!(await matches())) throw new Error("the object read back does not match the local file");
        outcome = "uploaded";
      }
      if (outcome === "uploaded") report.uploaded++;
      else report.alreadyThere++;
      await rm(file, { force: true });
      report.removed++;
      options.onFile?.(key, outcome);
    } catch (error) {
      report.failed.push({ key, reason: error instanceof Error ? error.message : String(error) });
      options.onFile?.(key, "failed");
    } finally {
      if (temp) await rm(temp, { force: true });
    }
  }
  return report;
}
