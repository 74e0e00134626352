import { readdirSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { borrowerDocuments } from "../../app/server/db/schema.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { signedInBorrower } from "../helpers/session.ts";
import { postForm, postUpload } from "../helpers/http.ts";

let app: TestServer;
beforeAll(async () => {
  app = await startTestServer();
});
afterAll(async () => {
  await app?.stop();
});

const PAGE = "/User/Profile/components/Documents";
const jpeg = () => new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, ...new Array(200).fill(7), 0xff, 0xd9]);
const png = () =>
  new Uint8Array([
    0x89,
    0x50,
    0x4e,
    0x47,
    0x0d,
    0x0a,
    0x1a,
    0x0a,
    ...new Array(100).fill(1),
    0,
    0,
    0,
    0,
    ...new TextEncoder().encode("IEND"),
    0xae,
    0x42,
    0x60,
    0x82,
  ]);
const pdf = () => new TextEncoder().encode("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n");
const elf = () => new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, ...new Array(100).fill(0)]);

let n = 0;
const borrower = () => signedInBorrower(app, `98500${String(n++).padStart(5, "0")}`);
const upload = (cookie: string, kind: string, bytes: Uint8Array, name: string) => postUpload(app, PAGE, { kind, bytes, name }, cookie);
const filesOnDisk = () => {
  const out: string[] = [];
  for (const dir of ["docs", "tmp"]) {
    try {
      out.push(...readdirSync(path.join(app.dataDir, "uploads", dir)).map((f) => `${dir}/${f}`));
    } catch {
      /* none yet */
    }
  }
  return out;
};

describe("document uploads", () => {
  it("stores JPEG, PNG and PDF judged by their bytes, and serves them only to the owner with safe headers", async () => {
    const { cookie, userId } = await borrower();
    expect((await upload(cookie, "pan_card", jpeg(), "pan.jpg")).status).toBe(302);
    expect((await upload(cookie, "aadhaar_front", png(), "front.png")).status).toBe(302);
    expect((await upload(cookie, "bank_statement", pdf(), "statement.pdf")).status).toBe(302);
    const docs = await app.services.db.select().from(borrowerDocuments).where(eq(borrowerDocuments.userId, userId));
    expect(docs.map((d) => [d.kind, d.contentType]).sort()).toEqual([
      ["aadhaar_front", "image/png"],
      ["bank_statement", "application/pdf"],
      ["pan_card", "image/jpeg"],
    ]);
    const pan = docs.find((d) => d.kind === "pan_card");
    const res = await app.get(`/User/Profile/documents/${pan?.id}`, { headers: { Cookie: cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/jpeg");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-disposition")).toBe('inline; filename="pan_card.jpg"');
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(jpeg());

    // Every URL of another borrower's document answers 404.
    const other = await borrower();
    for (const doc of docs) {
      expect((await app.get(`/User/Profile/documents/${doc.id}`, { headers: { Cookie: other.cookie } })).status).toBe(404);
    }
    const del = await postForm(app, PAGE, { intent: "delete", id: pan?.id ?? "" }, { cookie: other.cookie });
    expect(del.status).toBe(404);
    expect((await app.get(`/User/Profile/documents/${pan?.id}`, { headers: { Cookie: cookie } })).status).toBe(200);
  });

  it("replaces a document and deletes it, leaving no file behind", async () => {
    const { cookie, userId } = await borrower();
    await upload(cookie, "pan_card", jpeg(), "pan.jpg");
    const before = filesOnDisk().length;
    await upload(cookie, "pan_card", png(), "pan.png");
    expect(filesOnDisk().length).toBe(before);
    const [doc] = await app.services.db.select().from(borrowerDocuments).where(eq(borrowerDocuments.userId, userId));
    expect(doc?.contentType).toBe("image/png");
    const res = await postForm(app, PAGE, { intent: "delete", id: doc?.id ?? "" }, { cookie });
    expect(res.status).toBe(302);
    expect(filesOnDisk().length).toBe(before - 1);
  });

  it.each([
    ["a renamed executable", elf(), "report.pdf", "is not a JPG, PNG or PDF file. Choose a JPG, PNG or PDF file."],
    ["a PDF with a JPEG name", pdf(), "photo.jpg", "is named .jpg but is really a PDF file"],
    ["an empty file", new Uint8Array(0), "empty.pdf", "The file is empty"],
    ["a truncated image", jpeg().slice(0, 100), "cut.jpg", "incomplete or damaged"],
    ["an oversized file", new Uint8Array(5 * 1024 * 1024 + 10).fill(0x25), "huge.pdf", "larger than 5 MB"],
  ])("refuses %s with a clear message and leaves nothing on disk", async (_what, bytes, name, message) => {
    const { cookie, userId } = await borrower();
    const before = filesOnDisk();
    const res = await upload(cookie, "pan_card", bytes, name);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(message);
    expect(filesOnDisk()).toEqual(before);
    expect(await app.services.db.select().from(borrowerDocuments).where(eq(borrowerDocuments.userId, userId))).toEqual([]);
  });
});

describe("staff access to documents", () => {
  it("lets staff open a borrower's document (audited) and keeps borrowers out of that URL", async () => {
    const { createStaffInvite } = await import("../../app/server/auth/staff.server.ts");
    const { createUserSession } = await import("../../app/server/auth/session.server.ts");
    const { auditLog } = await import("../../app/server/db/schema.ts");
    const owner = await borrower();
    await upload(owner.cookie, "pan_card", jpeg(), "pan.jpg");
    const [doc] = await app.services.db.select().from(borrowerDocuments).where(eq(borrowerDocuments.userId, owner.userId));
    const { userId: staffId } = await createStaffInvite(app.services, { email: "reviewer@lender.example", role: "support" });
    const { setCookie } = await createUserSession(app.services, {
      userId: staffId,
      deviceId: "staff-test",
      ip: "127.0.0.1",
      userAgent: "test",
    });
    const staffCookie = setCookie.split(";")[0] ?? "";
    const res = await app.get(`/admin/documents/${doc?.id}`, { headers: { Cookie: staffCookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/jpeg");
    const audits = await app.services.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.subjectId, doc?.id ?? ""));
    expect(audits.map((a) => a.action)).toEqual(["kyc.document_viewed"]);
    expect((await app.get(`/admin/documents/${doc?.id}`, { headers: { Cookie: owner.cookie } })).status).toBe(403);
    expect((await app.get(`/admin/documents/${doc?.id}`)).status).toBe(302);
  });
});
