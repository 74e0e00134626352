import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keyringFromHex } from "../../app/server/crypto.server.ts";
import { type Bucket, openBucket } from "../../app/server/storage/s3-bucket.server.ts";
import { createS3Storage } from "../../app/server/storage/s3-storage.server.ts";
import { SEGMENT_BYTES } from "../../app/server/storage/sealed-stream.server.ts";
import type { FileStorage } from "../../app/server/storage/storage.server.ts";
import { startTestBucket, type TestBucket } from "../helpers/s3.ts";

const keyring = keyringFromHex("ab".repeat(32));
let s3: TestBucket;
let bucket: Bucket;
let storage: FileStorage;
let root: string;

beforeAll(async () => {
  s3 = await startTestBucket();
  bucket = openBucket(s3.settings);
  root = mkdtempSync(path.join(tmpdir(), "s3-storage-"));
  storage = createS3Storage(openBucket(s3.settings), root, keyring);
});
afterAll(async () => {
  storage?.close();
  bucket?.close();
  await s3?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

const objects = () => s3.keys();
const tempFiles = () => readdirSync(path.join(root, "tmp"));
const store = async (bytes: Buffer) => storage.commit((await storage.writeTemp(Readable.from([bytes]), 10_000_000)).key);

describe("files in an S3 bucket", { shuffle: false }, () => {
  it("round-trips a file of several segments, sealed in the bucket, streamed both ways, with nothing left on the disk", async () => {
    const bytes = randomBytes(3 * SEGMENT_BYTES + 12_345);
    // Streamed in small chunks, as an upload arrives.
    const chunks = Array.from({ length: Math.ceil(bytes.length / 10_000) }, (_, i) => bytes.subarray(i * 10_000, (i + 1) * 10_000));
    const temp = await storage.writeTemp(Readable.from(chunks), 10_000_000);
    expect(temp).toMatchObject({ size: bytes.length, tooLarge: false });
    expect(temp.key).toMatch(/^tmp\//);
    expect(await objects()).not.toContain(temp.key);
    const key = await storage.commit(temp.key);
    expect(key).toMatch(/^docs\/[0-9a-f-]{36}$/);
    expect(tempFiles()).toEqual([]);
    expect(readdirSync(path.join(root, "docs"))).toEqual([]);
    expect(await objects()).toContain(key);
    expect(await storage.exists(key)).toBe(true);

    const stored = await buffer(await bucket.get(key));
    expect(stored.subarray(0, 4).toString()).toBe("SLF1");
    expect(stored.includes(bytes.subarray(1000, 1064))).toBe(false);
    expect((await buffer(storage.read(key))).equals(bytes)).toBe(true);

    await storage.remove(key);
    expect(await storage.exists(key)).toBe(false);
    expect(await objects()).not.toContain(key);
  });

  it("refuses an object changed or cut short in the bucket: a read fails instead of releasing altered bytes", async () => {
    const bytes = randomBytes(2 * SEGMENT_BYTES + 99);
    const key = await store(bytes);
    const sealed = await buffer(await bucket.get(key));
    const file = path.join(root, "altered");
    for (const altered of [
      Buffer.concat([sealed.subarray(0, 100), Buffer.from([sealed[100]! ^ 1]), sealed.subarray(101)]),
      sealed.subarray(0, sealed.length - 20),
    ]) {
      writeFileSync(file, altered);
      await bucket.putFile(key, file);
      await expect(buffer(storage.read(key))).rejects.toThrow();
    }
    // A key the bucket does not hold is an error on the stream, not an empty file.
    await expect(buffer(storage.read("docs/00000000-0000-4000-8000-000000000000"))).rejects.toThrow();
    expect(await storage.exists("docs/00000000-0000-4000-8000-000000000000")).toBe(false);
  });

  it("leaves nothing behind when an upload is cut off, and stores no object when the bucket refuses the commit", async () => {
    const before = await objects();
    const cutOff = new Readable({ read() {} });
    const writing = storage.writeTemp(cutOff, 10_000_000);
    cutOff.push(randomBytes(SEGMENT_BYTES * 2));
    cutOff.destroy(new Error("client went away"));
    await expect(writing).rejects.toThrow(/client went away/);
    expect(tempFiles()).toEqual([]);
    expect(await objects()).toEqual(before);

    // A bucket that does not exist: the PutObject fails (the caller's row is never written) and the temporary file goes.
    const missing = createS3Storage(openBucket({ ...s3.settings, bucket: "no-such-bucket" }), root, keyring);
    const temp = await missing.writeTemp(Readable.from([randomBytes(1000)]), 10_000);
    await expect(missing.commit(temp.key)).rejects.toThrow();
    missing.close();
    expect(tempFiles()).toEqual([]);
    expect(await objects()).toEqual(before);
  });

  it("sends an object again when the bucket failed it half-way (the SDK does not retry a streamed body)", async () => {
    // A bucket whose first PutObject answers 503 after reading the body; the next ones succeed.
    const received: number[] = [];
    const flaky = createServer((req, res) => {
      let bytes = 0;
      req.on("data", (chunk: Buffer) => (bytes += chunk.length));
      req.on("end", () => {
        received.push(bytes);
        res.writeHead(received.length === 1 ? 503 : 200, { "Content-Type": "application/xml" }).end();
      });
    });
    await new Promise<void>((resolve) => flaky.listen(0, "127.0.0.1", resolve));
    const { port } = flaky.address() as AddressInfo;
    const shaky = openBucket({ ...s3.settings, endpoint: `http://127.0.0.1:${port}` });
    const file = path.join(root, "to-send");
    writeFileSync(file, randomBytes(150_000));
    try {
      await shaky.putFile("docs/00000000-0000-4000-8000-000000000001", file);
    } finally {
      shaky.close();
      flaky.close();
    }
    expect(received).toEqual([150_000, 150_000]);
  });

  it("lists the objects under docs/ with when each was written, and only those", async () => {
    const key = await store(randomBytes(10));
    const temp = await storage.writeTemp(Readable.from([randomBytes(10)]), 100);
    const listed: { key: string; modifiedAt: Date }[] = [];
    for await (const f of storage.list()) listed.push(f);
    const mine = listed.find((f) => f.key === key);
    expect(Math.abs((mine?.modifiedAt.getTime() ?? 0) - Date.now())).toBeLessThan(60_000);
    expect(listed.every((f) => f.key.startsWith("docs/"))).toBe(true);
    expect(listed.map((f) => f.key)).not.toContain(temp.key);
    // A temporary object is still read from this machine's disk (the reconciliation and AML uploads read theirs).
    expect((await buffer(storage.read(temp.key))).length).toBe(10);
    await storage.remove(temp.key);
  });
});
