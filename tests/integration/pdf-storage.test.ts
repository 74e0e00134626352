import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { and, eq, isNull, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loanApplications, loanDocuments, loanSignatures, revisedKfs } from "../../app/server/db/schema.ts";
import { issueKfs } from "../../app/server/loans/issue-kfs.server.ts";
import { movePdfsIntoStorage } from "../../app/server/storage/move-pdfs.server.ts";
import { SWEEP_GRACE_MS, sweepOrphans } from "../../app/server/storage/sweep.server.ts";
import { fileKeyring, isSealed, openStream } from "../../app/server/storage/sealed-stream.server.ts";
import { completeProfile, defaultProfile } from "../fixtures/kyc.ts";
import { activeLoan, signedInStaff, startedApplication } from "../helpers/applications.ts";
import { postForm } from "../helpers/http.ts";
import { emailsFor, noticesOf } from "../helpers/notices.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { signedInBorrower } from "../helpers/session.ts";

// Generated PDFs in file storage (docs/product.md "Key Fact Statement, signing and the signed
// agreement"; PRODUCT.md §21): the KFS, the signed agreement and the revised KFS are objects, sealed
// like uploads, written before the rows that name them; what is served is byte for byte what was
// stored; rows from before the move are still served and moved once; a failed row leaves no object.
const clock = new Date("2026-03-02T05:30:00Z");
let app: TestServer;
let credit: { cookie: string; userId: string };
let ops: { cookie: string; userId: string };
beforeAll(async () => {
  app = await startTestServer({ LOCAL_PAYOUT_SETTLE_SECONDS: "0" }, { now: () => clock });
  credit = await signedInStaff(app, "credit", "Asha Rao");
  ops = await signedInStaff(app, "operations", "Omar Shaikh");
});
afterAll(async () => {
  await app?.stop();
});

const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const docsDir = () => path.join(app.dataDir, "uploads", "docs");
const objects = () => readdirSync(docsDir()).sort();

/** The object's file as it lies on disk, opened with the files' keyring: the PDF it seals. */
async function opened(key: string): Promise<Buffer> {
  const sealed = readFileSync(path.join(app.dataDir, "uploads", key));
  expect(isSealed(sealed), `${key} is sealed`).toBe(true);
  expect(sealed.includes(Buffer.from("%PDF-")), `${key} holds no PDF in clear`).toBe(false);
  const chunks: Buffer[] = [];
  for await (const chunk of Readable.from([sealed]).pipe(openStream(fileKeyring(app.services.keyring)))) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A row's PDF is an object in storage (no bytes in the row) that opens to the PDF the row's hash names. */
async function inStorage(row: { bytes: Buffer | null; key: string | null; sha256: string } | undefined) {
  expect(row?.bytes ?? null).toBeNull();
  expect(row?.key).toMatch(/^docs\/[0-9a-f-]{36}$/);
  const pdf = await opened(row?.key as string);
  expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
  expect(sha(pdf)).toBe(row?.sha256);
  return pdf;
}

const pdfRows = async (applicationId: string) => {
  const db = app.services.db;
  const [doc] = await db
    .select({ id: loanDocuments.id, bytes: loanDocuments.pdf, key: loanDocuments.pdfKey, sha256: loanDocuments.sha256 })
    .from(loanDocuments)
    .where(and(eq(loanDocuments.applicationId, applicationId), isNull(loanDocuments.supersededAt)));
  const [sig] = await db
    .select({
      id: loanSignatures.id,
      bytes: loanSignatures.signedPdf,
      key: loanSignatures.signedPdfKey,
      sha256: loanSignatures.signedSha256,
      shown: loanSignatures.shownSha256,
    })
    .from(loanSignatures)
    .where(eq(loanSignatures.applicationId, applicationId));
  const [rev] = await db
    .select({ id: revisedKfs.id, bytes: revisedKfs.pdf, key: revisedKfs.pdfKey, sha256: revisedKfs.sha256 })
    .from(revisedKfs)
    .where(eq(revisedKfs.applicationId, applicationId));
  return { doc, sig, rev };
};

/** Every way a PDF of this loan is served, each answer's bytes. */
async function served(loan: { ref: string; cookie: string; agreementRef: string; loanNumber: string }) {
  const bytesOf = async (res: Response) => {
    expect(res.status, res.url).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    return Buffer.from(await res.arrayBuffer());
  };
  const asBorrower = { headers: { Cookie: loan.cookie } };
  return {
    kfs: await bytesOf(await app.get(`/User/newLoan/Emi/${loan.ref}/Step5/pdfDownload`, asBorrower)),
    agreement: await bytesOf(await app.get(`/Eagreement/${loan.agreementRef}/pdf?download=1`)),
    staffAgreement: await bytesOf(await app.get(`/admin/applications/${loan.ref}/agreement.pdf`, { headers: { Cookie: credit.cookie } })),
    revised: await bytesOf(await app.get(`/User/Loans/${loan.loanNumber}/revised-kfs.pdf`, asBorrower)),
  };
}

/** Puts a row back as it was before the move: its PDF in the row, no key, the object gone. */
async function asBeforeTheMove(table: "loan_documents" | "loan_signatures" | "revised_kfs", id: string, pdf: Buffer, key: string) {
  const [bytes, keyColumn] = table === "loan_signatures" ? ["signed_pdf", "signed_pdf_key"] : ["pdf", "pdf_key"];
  await app.services.db.execute(
    sql`update ${sql.identifier(table)} set ${sql.identifier(bytes)} = ${pdf}, ${sql.identifier(keyColumn)} = null where id = ${id}`,
  );
  await app.services.storage.remove(key);
}

describe("generated PDFs in file storage", { shuffle: false }, () => {
  let loan: Awaited<ReturnType<typeof activeLoan>>;
  const stored: Record<"kfs" | "agreement" | "revised", Buffer> = {
    kfs: Buffer.alloc(0),
    agreement: Buffer.alloc(0),
    revised: Buffer.alloc(0),
  };

  it("keeps the KFS, the signed agreement and the revised KFS as sealed objects, and serves exactly their bytes", async () => {
    // Signed on a Monday, the disbursal assumed the next working day, paid the same day: a revised KFS too.
    loan = await activeLoan(app, "9730000001", credit, ops, { email: "pdf.store@example.com" });
    const { doc, sig, rev } = await pdfRows(loan.id);
    stored.kfs = await inStorage(doc);
    stored.agreement = await inStorage(sig);
    stored.revised = await inStorage(rev);
    // The signature recorded the hash of the KFS as stored, and its signed copy begins with it.
    expect(sig?.shown).toBe(doc?.sha256);
    expect(stored.agreement.length).toBeGreaterThan(stored.kfs.length);

    const answer = await served(loan);
    expect(sha(answer.kfs)).toBe(doc?.sha256);
    expect(answer.kfs.equals(stored.kfs)).toBe(true);
    expect(answer.agreement.equals(stored.agreement)).toBe(true);
    expect(answer.staffAgreement.equals(stored.agreement)).toBe(true);
    expect(answer.revised.equals(stored.revised)).toBe(true);
    // The first page as an image (for phones) is drawn from the stored PDFs too.
    for (const png of [`/User/newLoan/Emi/${loan.ref}/Step5/preview.png`, `/Eagreement/${loan.agreementRef}/preview.png`]) {
      const res = await app.get(png, { headers: { Cookie: loan.cookie } });
      expect([png, res.status, res.headers.get("content-type")]).toEqual([png, 200, "image/png"]);
    }
    const headers = (await app.get(`/Eagreement/${loan.agreementRef}/pdf`)).headers;
    expect(headers.get("digest")).toBe(`sha-256=${Buffer.from(sig?.sha256 as string, "hex").toString("base64")}`);

    // The daily sweep of files no row names leaves them alone, however old.
    const files = objects();
    expect((await sweepOrphans(app.services, { now: Date.now() + 2 * SWEEP_GRACE_MS })).removed).toBe(0);
    expect(objects()).toEqual(files);
    for (const key of [doc?.key, sig?.key, rev?.key]) expect(files).toContain(path.basename(key as string));

    // The e-mail of the signing carries the signed copy, byte for byte.
    const [notice] = await noticesOf(app, loan.userId, "application_signed");
    const raw = await vi.waitFor(
      () => {
        const email = emailsFor(app.dataDir, notice?.id as string)[0]?.raw;
        if (!email) throw new Error("no e-mail yet");
        return email;
      },
      { timeout: 15_000, interval: 100 },
    );
    const attached = /name=signed-agreement\.pdf\r?\n(?:[^\r\n]+\r?\n)*\r?\n([A-Za-z0-9+/=\r\n]+)/.exec(raw)?.[1] ?? "";
    expect(Buffer.from(attached.replace(/\s/g, ""), "base64").equals(stored.agreement)).toBe(true);
  }, 120_000);

  it("serves rows from before the move from the row, and moves them into storage once, however many runs", async () => {
    const { doc, sig, rev } = await pdfRows(loan.id);
    await asBeforeTheMove("loan_documents", doc?.id as string, stored.kfs, doc?.key as string);
    await asBeforeTheMove("loan_signatures", sig?.id as string, stored.agreement, sig?.key as string);
    await asBeforeTheMove("revised_kfs", rev?.id as string, stored.revised, rev?.key as string);
    const old = await pdfRows(loan.id);
    expect([old.doc?.key, old.sig?.key, old.rev?.key]).toEqual([null, null, null]);

    const before = await served(loan);
    expect(before.kfs.equals(stored.kfs)).toBe(true);
    expect(before.agreement.equals(stored.agreement)).toBe(true);
    expect(before.revised.equals(stored.revised)).toBe(true);

    const objectsBefore = objects().length;
    const first = await movePdfsIntoStorage(app.services.db, app.services.storage);
    expect(first).toEqual({ moved: { loan_documents: 1, loan_signatures: 1, revised_kfs: 1 }, movedElsewhere: 0, mismatched: 0 });
    const moved = await pdfRows(loan.id);
    expect((await inStorage(moved.doc)).equals(stored.kfs)).toBe(true);
    expect((await inStorage(moved.sig)).equals(stored.agreement)).toBe(true);
    expect((await inStorage(moved.rev)).equals(stored.revised)).toBe(true);
    expect(objects().length).toBe(objectsBefore + 3);
    const after = await served(loan);
    expect([after.kfs.equals(stored.kfs), after.agreement.equals(stored.agreement), after.revised.equals(stored.revised)]).toEqual([
      true,
      true,
      true,
    ]);

    // Run again: nothing left to move, no object written.
    expect(await movePdfsIntoStorage(app.services.db, app.services.storage)).toEqual({
      moved: { loan_documents: 0, loan_signatures: 0, revised_kfs: 0 },
      movedElsewhere: 0,
      mismatched: 0,
    });
    expect(objects().length).toBe(objectsBefore + 3);

    // Two runs at once: each PDF moved once, and no object left that no row names.
    const again = await pdfRows(loan.id);
    await asBeforeTheMove("loan_documents", again.doc?.id as string, stored.kfs, again.doc?.key as string);
    await asBeforeTheMove("loan_signatures", again.sig?.id as string, stored.agreement, again.sig?.key as string);
    const both = await Promise.all([
      movePdfsIntoStorage(app.services.db, app.services.storage),
      movePdfsIntoStorage(app.services.db, app.services.storage),
    ]);
    const total = (name: string) => both.reduce((n, r) => n + (r.moved[name] ?? 0), 0);
    expect([total("loan_documents"), total("loan_signatures"), total("revised_kfs")]).toEqual([1, 1, 0]);
    expect(objects().length).toBe(objectsBefore + 3);
    const last = await pdfRows(loan.id);
    expect((await inStorage(last.doc)).equals(stored.kfs)).toBe(true);
    expect((await inStorage(last.sig)).equals(stored.agreement)).toBe(true);

    // A row whose bytes no longer match their recorded hash is not moved (nor served): it is reported, for someone to look.
    const damaged = Buffer.from(stored.revised);
    damaged.writeUInt8(damaged.readUInt8(damaged.length - 10) ^ 1, damaged.length - 10);
    await asBeforeTheMove("revised_kfs", last.rev?.id as string, damaged, last.rev?.key as string);
    const refused = await movePdfsIntoStorage(app.services.db, app.services.storage);
    expect(refused).toEqual({ moved: { loan_documents: 0, loan_signatures: 0, revised_kfs: 0 }, movedElsewhere: 0, mismatched: 1 });
    expect((await pdfRows(loan.id)).rev?.key).toBeNull();
    expect((await app.get(`/User/Loans/${loan.loanNumber}/revised-kfs.pdf`, { headers: { Cookie: loan.cookie } })).status).toBe(500);
  }, 120_000);

  it("leaves no row naming a missing object, and no object, when the KFS's row or its object cannot be written", async () => {
    const mobile = "9730000002";
    const session = await signedInBorrower(app, mobile);
    await completeProfile(app, session.cookie, defaultProfile(), mobile);
    const ref = await startedApplication(app, session.cookie, "Emi");
    const step = (s: string) => `/User/newLoan/Emi/${ref}/${s}`;
    expect((await postForm(app, step("Step0"), { amount: "1,00,000", tenure: "12" }, { cookie: session.cookie })).status).toBe(302);
    expect((await postForm(app, step("Step1"), { purpose: "medical", disbursalConsent: "yes" }, { cookie: session.cookie })).status).toBe(
      302,
    );
    const [application] = await app.services.db.select().from(loanApplications).where(eq(loanApplications.reference, ref));
    const issue = (services = app.services) =>
      issueKfs(services, { userId: session.userId, applicationId: application?.id as string, language: "en" });
    const rows = () =>
      app.services.db
        .select()
        .from(loanDocuments)
        .where(eq(loanDocuments.applicationId, application?.id as string));
    const objectsBefore = objects();

    // The row's insert fails after the object was written: the transaction rolls back, the object goes.
    await app.services.db.execute(
      sql.raw(
        `create function refuse_kfs() returns trigger language plpgsql as $$ begin raise exception 'test: the row is refused'; end $$`,
      ),
    );
    await app.services.db.execute(
      sql.raw(`create trigger refuse_kfs before insert on loan_documents for each row execute function refuse_kfs()`),
    );
    try {
      await expect(issue()).rejects.toThrow();
    } finally {
      await app.services.db.execute(sql.raw(`drop trigger refuse_kfs on loan_documents`));
      await app.services.db.execute(sql.raw(`drop function refuse_kfs()`));
    }
    expect(await rows()).toHaveLength(0);
    expect(objects()).toEqual(objectsBefore);

    // Storage refuses the object: no row is written, and no partial file stays behind.
    const refusing = { ...app.services.storage, commit: () => Promise.reject(new Error("test: storage is down")) };
    await expect(issue({ ...app.services, storage: refusing })).rejects.toThrow("storage is down");
    expect(await rows()).toHaveLength(0);
    expect(objects()).toEqual(objectsBefore);
    expect(readdirSync(path.join(app.dataDir, "uploads", "tmp"))).toEqual([]);

    // Then it is issued as usual.
    expect((await app.get(step("Step5"), { headers: { Cookie: session.cookie } })).status).toBe(200);
    const [issued] = await rows();
    await inStorage(issued && { bytes: issued.pdf, key: issued.pdfKey, sha256: issued.sha256 });

    // An object lost from storage is an error answer, never a cut-off PDF sent as if whole.
    await app.services.storage.remove(issued?.pdfKey as string);
    const lost = await app.get(step("Step5/pdfDownload"), { headers: { Cookie: session.cookie } });
    expect(lost.status).toBe(500);
    expect(lost.headers.get("content-type")).not.toBe("application/pdf");
  }, 120_000);
});
