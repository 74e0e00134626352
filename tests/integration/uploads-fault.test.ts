import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buffer } from "node:stream/consumers";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { borrowerDocuments } from "../../app/server/db/schema.ts";
import { originOf, rawRequest } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { signedInBorrower } from "../helpers/session.ts";

let app: TestServer;
beforeAll(async () => {
  app = await startTestServer();
});
afterAll(async () => {
  await app?.stop();
});

const DOCUMENTS = "/User/Profile/components/Documents";
const SELFIE = "/User/Profile/components/Selfie";
const BOUNDARY = "----upload-fault-test";
const jpeg = (size: number) =>
  Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1]), randomBytes(size), Buffer.from([0xff, 0xd9])]);

/** A multipart body with a `kind` field and one file; `complete: false` leaves off the closing boundary. */
function multipart(kind: string, file: Buffer, complete = true) {
  return Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="kind"\r\n\r\n${kind}\r\n`),
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="scan.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`),
    file,
    Buffer.from(complete ? `\r\n--${BOUNDARY}--\r\n` : ""),
  ]);
}
const headers = (cookie: string, length: number) => ({
  "Content-Type": `multipart/form-data; boundary=${BOUNDARY}`,
  "Content-Length": String(length),
  Cookie: cookie,
});
const onDisk = (dataDir = app.dataDir) =>
  ["tmp", "docs"].flatMap((dir) => readdirSync(path.join(dataDir, "uploads", dir)).map((f) => `${dir}/${f}`));
/** What a test added to the disk since `before` (files other tests stored stay). */
const addedSince = (before: string[]) => onDisk().filter((f) => !before.includes(f));
const alive = async () => (await app.get("/healthz")).status === 200;
const settle = () => new Promise((r) => setTimeout(r, 300));

let n = 0;
const borrower = () => signedInBorrower(app, `97200${String(n++).padStart(5, "0")}`);

describe("upload faults", () => {
  it("a body cut off before its closing boundary is 400 on both upload pages, and leaves nothing", async () => {
    const before = onDisk();
    const { cookie, userId } = await borrower();
    for (const [page, kind] of [
      [DOCUMENTS, "pan_card"],
      [SELFIE, "selfie"],
    ] as const) {
      const body = multipart(kind, jpeg(200_000), false);
      const answer = await rawRequest(app, {
        path: page,
        headers: headers(cookie, body.length),
        chunks: [body.subarray(0, 100_000), body.subarray(100_000)],
      });
      expect(answer?.status, page).toBe(400);
      expect(answer?.body).toContain("did not arrive whole");
    }
    await settle();
    expect(await alive()).toBe(true);
    expect(addedSince(before)).toEqual([]);
    expect(await app.services.db.select().from(borrowerDocuments).where(eq(borrowerDocuments.userId, userId))).toEqual([]);
  });

  it("a client that goes away half-way leaves the process alive and nothing on disk", async () => {
    const before = onDisk();
    const { cookie } = await borrower();
    for (const page of [DOCUMENTS, SELFIE]) {
      const body = multipart(page === SELFIE ? "selfie" : "pan_card", jpeg(1_500_000));
      const chunks = Array.from({ length: 10 }, (_, i) => body.subarray(i * 150_000, (i + 1) * 150_000));
      expect(await rawRequest(app, { path: page, headers: headers(cookie, body.length), chunks, abortAfter: 4 })).toBeNull();
    }
    await settle();
    expect(await alive()).toBe(true);
    expect(addedSince(before)).toEqual([]);
  });

  it("a file over its limit is refused: 413 unread when declared larger, 400 next to the field when just over", async () => {
    const before = onDisk();
    const { cookie } = await borrower();
    const huge = await rawRequest(app, {
      path: DOCUMENTS,
      headers: headers(cookie, 60 * 1024 * 1024),
      chunks: [multipart("pan_card", jpeg(10)).subarray(0, 200)],
    });
    expect(huge?.status).toBe(413);
    const justOver = multipart("pan_card", jpeg(5 * 1024 * 1024 + 100));
    const res = await app.get(DOCUMENTS, {
      method: "POST",
      body: justOver,
      headers: { ...headers(cookie, justOver.length), Origin: originOf(app) },
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("larger than 5 MB");
    await settle();
    expect(await alive()).toBe(true);
    expect(addedSince(before)).toEqual([]);
  });

  it("a file the disk cannot take is answered at once with 503 and try again later, on both upload pages", async () => {
    const before = onDisk();
    const { cookie } = await borrower();
    const storage = app.services.storage;
    const writeTemp = storage.writeTemp;
    // As a full disk: the write fails after the file's first bytes, and its stream is destroyed (as pipeline does).
    storage.writeTemp = async (source) => {
      await new Promise((resolve) => source.once("data", resolve));
      source.destroy();
      throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC", syscall: "write" });
    };
    try {
      for (const [page, kind] of [
        [DOCUMENTS, "pan_card"],
        [SELFIE, "selfie"],
      ] as const) {
        // A large file fails while the form is still arriving; a small one may fail after it was read whole.
        for (const size of [1_000_000, 2_000]) {
          const body = multipart(kind, jpeg(size));
          const answer = await rawRequest(app, { path: page, headers: headers(cookie, body.length), chunks: [body] });
          expect(answer?.status, `${page}, ${size} bytes`).toBe(503);
          expect(answer?.body).toContain("We could not keep your file just now");
        }
      }
    } finally {
      storage.writeTemp = writeTemp;
    }
    await settle();
    expect(await alive()).toBe(true);
    expect(addedSince(before)).toEqual([]);
  });

  it("keeps a stored file sealed and readable by this process's user only, and gives the owner the bytes uploaded", async () => {
    const { cookie, userId } = await borrower();
    const file = jpeg(100_000);
    const body = multipart("pan_card", file);
    const res = await app.get(DOCUMENTS, { method: "POST", body, headers: { ...headers(cookie, body.length), Origin: originOf(app) } });
    expect(res.status).toBe(302);
    const [doc] = await app.services.db.select().from(borrowerDocuments).where(eq(borrowerDocuments.userId, userId));
    const stored = path.join(app.dataDir, "uploads", doc?.storageKey ?? "missing");
    expect(statSync(stored).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(stored)).mode & 0o777).toBe(0o700);
    const raw = readFileSync(stored);
    expect(raw.subarray(0, 4).toString()).toBe("SLF1");
    expect(raw.includes(file.subarray(0, 64))).toBe(false);
    const served = await app.get(`/User/Profile/documents/${doc?.id}`, { headers: { Cookie: cookie } });
    expect(Buffer.from(await served.arrayBuffer()).equals(file)).toBe(true);
  });
});

describe("at start", () => {
  it("removes partial uploads left by a killed process and seals files an earlier version kept in clear", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "sugam-restart-"));
    try {
      const first = await startTestServer({ DATA_DIR: dataDir });
      await first.stop();
      const left = path.join(dataDir, "uploads", "tmp", "0d5f2c1e-left-by-a-kill");
      writeFileSync(left, randomBytes(1000));
      // Idle long enough for PostgreSQL's rule too (other processes may share the directory there: 15 minutes).
      const idle = new Date(Date.now() - 20 * 60_000);
      utimesSync(left, idle, idle);
      const clear = jpeg(70_000);
      const legacy = path.join(dataDir, "uploads", "docs", "9b1c7a52-0000-4000-8000-000000000001");
      writeFileSync(legacy, clear, { mode: 0o644 });

      const second = await startTestServer({ DATA_DIR: dataDir });
      try {
        expect(onDisk(dataDir)).toEqual(["docs/9b1c7a52-0000-4000-8000-000000000001"]);
        expect(readFileSync(legacy).subarray(0, 4).toString()).toBe("SLF1");
        expect(statSync(legacy).mode & 0o777).toBe(0o600);
        expect((await buffer(second.services.storage.read("docs/9b1c7a52-0000-4000-8000-000000000001"))).equals(clear)).toBe(true);
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
