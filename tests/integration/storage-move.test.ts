import { execFile, spawnSync } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keyringFromHex } from "../../app/server/crypto.server.ts";
import { type Bucket, openBucket } from "../../app/server/storage/s3-bucket.server.ts";
import { createS3Storage } from "../../app/server/storage/s3-storage.server.ts";
import { createLocalStorage } from "../../app/server/storage/storage.server.ts";
import { startTestBucket, type TestBucket } from "../helpers/s3.ts";

const ENCRYPTION_KEY = "cd".repeat(32);
const keyring = keyringFromHex(ENCRYPTION_KEY);
let s3: TestBucket;
let bucket: Bucket;
let dataDir: string;

beforeAll(async () => {
  s3 = await startTestBucket();
  bucket = openBucket(s3.settings);
  dataDir = mkdtempSync(path.join(tmpdir(), "storage-move-"));
});
afterAll(async () => {
  bucket?.close();
  await s3?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/**
 * `npm run storage:move` as an operator runs it, against this test's data directory and bucket
 * (in a process of its own, waited for without blocking: the bucket's server may be in this one).
 */
function runMove(): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["scripts/storage-move.ts"],
      { env: { ...process.env, DATA_DIR: dataDir, ENCRYPTION_KEY, SESSION_SECRET: "s".repeat(40), ...s3.env }, timeout: 60_000 },
      (error, stdout, stderr) =>
        resolve({ status: error ? (typeof error.code === "number" ? error.code : null) : 0, output: stdout + stderr }),
    );
  });
}
const docsOnDisk = () => readdirSync(path.join(dataDir, "uploads", "docs")).sort();
const readBack = async (key: string) => {
  const storage = createS3Storage(openBucket(s3.settings), dataDir + "/uploads", keyring);
  try {
    return await buffer(storage.read(key));
  } finally {
    storage.close();
  }
};

describe("npm run storage:move", { shuffle: false }, () => {
  const sealed = randomBytes(200_000);
  const clear = Buffer.from("%PDF-1.4 a statement an earlier version kept in clear\n%%EOF\n");
  let sealedKey = "";
  const clearKey = `docs/${randomUUID()}`;
  let damagedKey = "";

  it("moves the data directory's files into the bucket under the same keys, sealing a clear one, and keeps a damaged one", async () => {
    const local = createLocalStorage(path.join(dataDir, "uploads"), keyring);
    sealedKey = await local.commit((await local.writeTemp(Readable.from([sealed]), 1_000_000)).key);
    writeFileSync(path.join(dataDir, "uploads", clearKey), clear);
    damagedKey = await local.commit((await local.writeTemp(Readable.from([randomBytes(100_000)]), 1_000_000)).key);
    const damagedFile = path.join(dataDir, "uploads", damagedKey);
    writeFileSync(damagedFile, readFileSync(damagedFile).subarray(0, 50_000));

    const first = await runMove();
    expect(first.status).toBe(1);
    expect(first.output).toContain(
      "Data directory files: 3 found, 2 uploaded, 0 already in the bucket, 1 kept in clear sealed on the way, 2 local copies removed, 1 failed.",
    );
    expect(first.output).toContain(`${damagedKey}: `);
    expect(docsOnDisk()).toEqual([damagedKey.slice(5)]);
    expect((await readBack(sealedKey)).equals(sealed)).toBe(true);
    expect((await readBack(clearKey)).equals(clear)).toBe(true);
    // The clear file went into the bucket sealed.
    expect((await buffer(await bucket.get(clearKey))).includes(clear)).toBe(false);
    expect(await bucket.size(damagedKey)).toBeNull();
  });

  it("runs again safely: a file already in the bucket (a run stopped before removing it) is checked, not put again", async () => {
    rmSync(path.join(dataDir, "uploads", damagedKey));
    const local = createLocalStorage(path.join(dataDir, "uploads"), keyring);
    const bytes = randomBytes(70_000);
    const key = await local.commit((await local.writeTemp(Readable.from([bytes]), 1_000_000)).key);
    // As a run stopped between its PutObject and the local file's removal leaves it.
    await bucket.putFile(key, path.join(dataDir, "uploads", key));

    const second = await runMove();
    expect(second.status).toBe(0);
    expect(second.output).toContain(
      "Data directory files: 1 found, 0 uploaded, 1 already in the bucket, 0 kept in clear sealed on the way, 1 local copies removed, 0 failed.",
    );
    expect(docsOnDisk()).toEqual([]);
    expect((await readBack(key)).equals(bytes)).toBe(true);
    expect((await readBack(sealedKey)).equals(sealed)).toBe(true);

    const third = await runMove();
    expect(third.status).toBe(0);
    expect(third.output).toContain("Data directory files: 0 found, 0 uploaded");
  });

  it("refuses to run without a bucket configured", () => {
    const run = spawnSync(process.execPath, ["scripts/storage-move.ts"], {
      env: { ...process.env, DATA_DIR: dataDir, ENCRYPTION_KEY, SESSION_SECRET: "s".repeat(40) },
      encoding: "utf8",
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("S3_BUCKET is not set");
  });
});
