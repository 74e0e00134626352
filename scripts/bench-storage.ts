// Files in the data directory and in an S3-compatible bucket, for `npm run bench` (BENCH_ONLY=storage
// for this part alone; not in the CI profile). The app server in this process on PostgreSQL as the
// other parts (BENCH_DATABASE_URL, else the local test database), the bucket on the local S3 server (scripts/local-s3.ts, s3rver)
// in a process of its own, as a bucket is elsewhere. For each: BENCH_STORAGE_UPLOADS (100) KYC
// uploads of BENCH_STORAGE_KB (500 KB) through the documents form, one at a time, each a borrower of
// its own, after 10 not counted (the upload's request: received, sealed into the local tmp, committed, its row written),
// then each document downloaded through its page (read from the storage, opened, sent): p50/p95 in ms.
// Checked: every download is the uploaded bytes; the bucket run left nothing in the data directory.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readdirSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { eq } from "drizzle-orm";
import { borrowerDocuments } from "../app/server/db/schema.ts";

const UPLOADS = Number(process.env.BENCH_STORAGE_UPLOADS ?? 100);
const FILE_BYTES = Number(process.env.BENCH_STORAGE_KB ?? 500) * 1024;
const WARM_UP = 10;
process.env.TEST_DATABASE_URL ??= process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const { startTestServer } = await import("../tests/helpers/server.ts");
const { startTestBucket } = await import("../tests/helpers/s3.ts");
const { postUpload } = await import("../tests/helpers/http.ts");
const { signedInBorrower } = await import("../tests/helpers/session.ts");

export interface StorageRun {
  label: string;
  upload: { p50: number; p95: number };
  read: { p50: number; p95: number };
  checks: [string, boolean][];
}
export interface StorageFigures {
  uploads: number;
  fileKb: number;
  runs: StorageRun[];
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const summary = (ms: number[]) => {
  const sorted = [...ms].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
};
const jpeg = () =>
  Buffer.concat([
    Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1]),
    randomBytes(FILE_BYTES - 14),
    Buffer.from([0xff, 0xd9]),
  ]);

async function measure(label: string, env: Record<string, string>): Promise<StorageRun> {
  const app = await startTestServer(env);
  try {
    const uploadMs: number[] = [];
    const readMs: number[] = [];
    const sent: { cookie: string; id: string; bytes: Buffer }[] = [];
    // The first WARM_UP of each are not counted (the server's code compiled, connections opened).
    for (let i = 0; i < UPLOADS + WARM_UP; i++) {
      const { cookie, userId } = await signedInBorrower(app, `96${String(i).padStart(8, "0")}`);
      const bytes = jpeg();
      const start = performance.now();
      const res = await postUpload(app, "/User/Profile/components/Documents", { kind: "pan_card", bytes, name: "pan.jpg" }, cookie);
      await res.arrayBuffer();
      if (i >= WARM_UP) uploadMs.push(performance.now() - start);
      if (res.status !== 302) throw new Error(`upload answered ${res.status}`);
      const [doc] = await app.services.db.select().from(borrowerDocuments).where(eq(borrowerDocuments.userId, userId));
      sent.push({ cookie, id: doc?.id ?? "", bytes });
    }
    let identical = true;
    for (const [i, s] of sent.entries()) {
      const start = performance.now();
      const res = await app.get(`/User/Profile/documents/${s.id}`, { headers: { Cookie: s.cookie } });
      const body = Buffer.from(await res.arrayBuffer());
      if (i >= WARM_UP) readMs.push(performance.now() - start);
      identical &&= res.status === 200 && body.equals(s.bytes);
    }
    const onDisk = readdirSync(path.join(app.dataDir, "uploads", "docs")).length;
    return {
      label,
      upload: summary(uploadMs),
      read: summary(readMs),
      checks: [
        [`${label}: every download is the uploaded bytes`, identical],
        [`${label}: ${env.S3_BUCKET ? "nothing" : "every file"} in the data directory`, onDisk === (env.S3_BUCKET ? 0 : sent.length)],
      ],
    };
  } finally {
    await app.stop();
  }
}

/** The local S3 server in a process of its own; resolves with its endpoint and a stop. */
async function startLocalS3() {
  const child = spawn(process.execPath, ["scripts/local-s3.ts"], { stdio: ["ignore", "pipe", "inherit"] });
  const endpoint = await new Promise<string>((resolve, reject) => {
    child.once("exit", () => reject(new Error("the local S3 server did not start")));
    createInterface({ input: child.stdout }).on("line", (line) => {
      const m = /^S3 endpoint: (\S+)/.exec(line);
      if (m?.[1]) resolve(m[1]);
    });
  });
  return { endpoint, stop: () => child.kill("SIGTERM") };
}

export async function storageBench(): Promise<StorageFigures> {
  const runs = [await measure("data directory", {})];
  const s3 = await startLocalS3();
  try {
    const bucket = await startTestBucket(s3.endpoint);
    runs.push(await measure("S3 bucket (local s3rver)", bucket.env));
  } finally {
    s3.stop();
  }
  return { uploads: UPLOADS, fileKb: FILE_BYTES / 1024, runs };
}

export function reportStorage(f: StorageFigures) {
  console.log(`\n## Files: ${f.uploads} KYC uploads of ${f.fileKb} KB through the documents form, then each downloaded (ms)`);
  console.log(`  ${"".padEnd(26)} ${"upload p50".padStart(11)} ${"p95".padStart(7)} ${"read p50".padStart(9)} ${"p95".padStart(7)}`);
  for (const r of f.runs)
    console.log(
      `  ${r.label.padEnd(26)} ${r.upload.p50.toFixed(1).padStart(11)} ${r.upload.p95.toFixed(1).padStart(7)} ${r.read.p50.toFixed(1).padStart(9)} ${r.read.p95.toFixed(1).padStart(7)}`,
    );
  for (const [what, ok] of f.runs.flatMap((r) => r.checks)) console.log(`  ${ok ? "✓" : "✗"} ${what}`);
}
