import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { borrowerDocuments } from "../../app/server/db/schema.ts";
import { type Bucket, openBucket } from "../../app/server/storage/s3-bucket.server.ts";
import { createLocalStorage } from "../../app/server/storage/storage.server.ts";
import { SWEEP_GRACE_MS, sweepOrphans } from "../../app/server/storage/sweep.server.ts";
import { startServer } from "../../server/main.ts";
import { postUpload } from "../helpers/http.ts";
import { startTestBucket, type TestBucket } from "../helpers/s3.ts";
import { logSink } from "../helpers/log-sink.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { signedInBorrower } from "../helpers/session.ts";

let s3: TestBucket;
let bucket: Bucket;
let app: TestServer;
beforeAll(async () => {
  s3 = await startTestBucket();
  bucket = openBucket(s3.settings);
  app = await startTestServer(s3.env);
});
afterAll(async () => {
  await app?.stop();
  bucket?.close();
  await s3?.stop();
});

const PAGE = "/User/Profile/components/Documents";
const jpeg = (size: number) =>
  Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1]), randomBytes(size), Buffer.from([0xff, 0xd9])]);
const inBucket = () => s3.keys();
const onDisk = () => ["tmp", "docs"].flatMap((dir) => readdirSync(path.join(app.dataDir, "uploads", dir)).map((f) => `${dir}/${f}`));
const HOUR = 3_600_000;

describe("a bucket that cannot be reached", () => {
  it("is reported by /readyz, which stays ready, and logged as an error at start", async () => {
    expect(await (await app.get("/readyz")).json()).toMatchObject({ status: "ready", storage: "reachable" });
    const { sink, lines } = logSink();
    const missing = await startTestServer(
      { ...s3.env, S3_BUCKET: `missing-${randomBytes(4).toString("hex")}`, LOG_LEVEL: "info" },
      { logDestination: sink },
    );
    try {
      const errors = lines().filter((l) => l.level >= 50);
      expect(errors.map((e) => e.msg)).toEqual([expect.stringContaining("the S3 bucket cannot be reached")]);
      const ready = await missing.get("/readyz");
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({ status: "ready", storage: "unreachable" });
    } finally {
      await missing.stop();
    }
  });
});

describe("KYC documents with S3_BUCKET set", { shuffle: false }, () => {
  let documentKey = "";

  it("stores an upload through the documents form in the bucket, not the data directory, and serves it back byte for byte", async () => {
    const { cookie, userId } = await signedInBorrower(app, "9730000001");
    const scan = jpeg(300_000);
    expect((await postUpload(app, PAGE, { kind: "pan_card", bytes: scan, name: "pan.jpg" }, cookie)).status).toBe(302);
    const [doc] = await app.services.db.select().from(borrowerDocuments).where(eq(borrowerDocuments.userId, userId));
    expect(doc).toMatchObject({ kind: "pan_card", contentType: "image/jpeg", sizeBytes: scan.length });
    documentKey = doc?.storageKey ?? "";

    expect(await inBucket()).toEqual([documentKey]);
    expect(await bucket.size(documentKey)).toBeGreaterThan(scan.length);
    expect(onDisk()).toEqual([]);

    const res = await app.get(`/User/Profile/documents/${doc?.id}`, { headers: { Cookie: cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/jpeg");
    expect(Buffer.from(await res.arrayBuffer()).equals(scan)).toBe(true);
  });

  it("tells the borrower to try again later when the bucket does not take the file, keeping nothing", async () => {
    const { cookie, userId } = await signedInBorrower(app, "9730000002");
    const before = await inBucket();
    const { storage } = app.services;
    const commit = storage.commit;
    // The bucket out of reach: the SDK's own error for a refused connection.
    storage.commit = async (key) => {
      await storage.remove(key);
      throw Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9"), { code: "ECONNREFUSED" });
    };
    try {
      const res = await postUpload(app, PAGE, { kind: "pan_card", bytes: jpeg(1000), name: "pan.jpg" }, cookie);
      expect(res.status).toBe(400);
      expect(await res.text()).toContain("We could not keep your file just now. Please try again in a few minutes.");
    } finally {
      storage.commit = commit;
    }
    expect(await app.services.db.select().from(borrowerDocuments).where(eq(borrowerDocuments.userId, userId))).toEqual([]);
    expect(await inBucket()).toEqual(before);
    expect(onDisk()).toEqual([]);
  });

  it("sweeps objects no row names once older than the grace period, never a document's or a recent one", async () => {
    const { storage } = app.services;
    const orphan = await storage.commit((await storage.writeTemp(Readable.from([randomBytes(5000)]), 10_000)).key);
    expect((await inBucket()).sort()).toEqual([documentKey, orphan].sort());

    // Within the day an in-flight request's row may still be on its way: nothing is taken.
    expect(await sweepOrphans(app.services)).toEqual({ seen: 2, removed: 0 });
    expect(await sweepOrphans(app.services, { now: Date.now() + SWEEP_GRACE_MS - HOUR })).toEqual({ seen: 2, removed: 0 });
    // A day on, the object no row names goes; the document stays and still downloads.
    expect(await sweepOrphans(app.services, { now: Date.now() + SWEEP_GRACE_MS + HOUR })).toEqual({ seen: 2, removed: 1 });
    expect(await inBucket()).toEqual([documentKey]);
    expect(await storage.exists(documentKey)).toBe(true);
  });

  it("sweeps the data directory the same way", async () => {
    const root = mkdtempSync(path.join(tmpdir(), "sweep-local-"));
    try {
      const local = createLocalStorage(root, app.services.keyring);
      const oldOrphan = `docs/${randomUUID()}`;
      const freshOrphan = `docs/${randomUUID()}`;
      // A file the document's row names (as before a move into a bucket).
      for (const key of [oldOrphan, freshOrphan, documentKey]) writeFileSync(path.join(root, key), "sealed bytes");
      const dayAgo = new Date(Date.now() - SWEEP_GRACE_MS - HOUR);
      for (const key of [oldOrphan, documentKey]) utimesSync(path.join(root, key), dayAgo, dayAgo);

      expect(await sweepOrphans({ db: app.services.db, storage: local })).toEqual({ seen: 3, removed: 1 });
      expect(
        readdirSync(path.join(root, "docs"))
          .map((f) => `docs/${f}`)
          .sort(),
      ).toEqual([freshOrphan, documentKey].sort());
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("refuses to start production with a bucket outside India, saying why", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "s3-refused-"));
    try {
      await expect(
        startServer({
          env: {
            DATA_DIR: dataDir,
            APP_ENV: "production",
            SESSION_SECRET: "s".repeat(40),
            ENCRYPTION_KEY: "a".repeat(64),
            ...s3.env,
            S3_REGION: "us-east-1",
          },
        }),
      ).rejects.toThrow(/S3_DATA_IN_INDIA: must be true when APP_ENV=production with an S3_ENDPOINT other than AWS's/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
