import { readdirSync } from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { borrowerDocuments } from "../../app/server/db/schema.ts";
import { signedApplication, signedInStaff } from "../helpers/applications.ts";
import { postUpload } from "../helpers/http.ts";
import { type Fleet, type Machine, startMachines } from "../helpers/machines.ts";
import { startTestBucket, type TestBucket } from "../helpers/s3.ts";
import { TEST_DATABASE_URL } from "../helpers/server.ts";
import { signedInBorrower } from "../helpers/session.ts";

// PRODUCT.md §21, files: two app machines (processes with data directories of their own) on one
// PostgreSQL and one bucket (S3_BUCKET, a local S3-compatible server). A file written through one
// machine is served by the other, byte for byte; none stays in a machine's data directory.
let s3: TestBucket;
let fleet: Fleet;
let a: Machine;
let b: Machine;
let admin: { cookie: string; userId: string };

beforeAll(async () => {
  if (!TEST_DATABASE_URL) return;
  s3 = await startTestBucket();
  fleet = await startMachines(["a", "b"], s3.env);
  [a, b] = fleet.machines as [Machine, Machine];
  admin = await signedInStaff(a, "admin", "Anil Mehta");
}, 120_000);
afterAll(async () => {
  await fleet?.stop();
  await s3?.stop();
});

const jpeg = (size: number) =>
  Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1]), randomBytes(size), Buffer.from([0xff, 0xd9])]);
/** The bytes `machine` answers with for `pathname` (after checking it is a 200 of `type`). */
async function bytesFrom(machine: Machine, pathname: string, cookie: string, type: string) {
  const res = await machine.get(pathname, { headers: { Cookie: cookie } });
  expect(res.status, `${machine.name} ${pathname}`).toBe(200);
  expect(res.headers.get("content-type")).toBe(type);
  return Buffer.from(await res.arrayBuffer());
}
const storedOnDisk = (m: Machine) => readdirSync(path.join(m.dataDir, "uploads", "docs"));

describe.skipIf(!TEST_DATABASE_URL)("two app machines sharing one PostgreSQL and one bucket: files", () => {
  it("a KYC document uploaded through the form on A downloads byte for byte from B, for the borrower and for staff", async () => {
    const { cookie, userId } = await signedInBorrower(a, "9800030001");
    const scan = jpeg(300_000);
    const sent = await postUpload(a, "/User/Profile/components/Documents", { kind: "pan_card", bytes: scan, name: "pan.jpg" }, cookie);
    expect(sent.status).toBe(302);
    const [doc] = await a.services.db.select().from(borrowerDocuments).where(eq(borrowerDocuments.userId, userId));
    expect(doc).toMatchObject({ kind: "pan_card", sizeBytes: scan.length });

    expect((await bytesFrom(b, `/User/Profile/documents/${doc?.id}`, cookie, "image/jpeg")).equals(scan)).toBe(true);
    expect((await bytesFrom(b, `/admin/documents/${doc?.id}`, admin.cookie, "image/jpeg")).equals(scan)).toBe(true);
    // The file is the bucket's: neither machine keeps it.
    expect(await s3.keys()).toContain(doc?.storageKey);
    for (const m of [a, b]) expect(storedOnDisk(m)).toEqual([]);
  });

  it("an application signed on A: its KFS and signed agreement are served by B, the same bytes", async () => {
    const signed = await signedApplication(a, "9800030002");
    const kfs = `/User/newLoan/Emi/${signed.ref}/Step5/pdfDownload`;
    const agreement = `/admin/applications/${signed.ref}/agreement.pdf`;
    const fromA = {
      kfs: await bytesFrom(a, kfs, signed.cookie, "application/pdf"),
      agreement: await bytesFrom(a, agreement, admin.cookie, "application/pdf"),
    };
    expect(fromA.kfs.subarray(0, 5).toString()).toBe("%PDF-");
    expect((await bytesFrom(b, kfs, signed.cookie, "application/pdf")).equals(fromA.kfs)).toBe(true);
    expect((await bytesFrom(b, agreement, admin.cookie, "application/pdf")).equals(fromA.agreement)).toBe(true);
    // The profile's documents, uploaded through A's forms on the way, are in the bucket too.
    for (const m of [a, b]) expect(storedOnDisk(m)).toEqual([]);
  });
});
