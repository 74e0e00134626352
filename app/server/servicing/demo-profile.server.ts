/**
 * The demo borrower's KYC profile (docs/product.md "Loan servicing", demo data): all seven sections
 * complete, as a borrower who was lent to would have them (personal details with PAN and Aadhaar and
 * the KYC consent, address, work and income, a verified bank account, two references, every document
 * a salaried borrower uploads, and a selfie). The files are small samples marked as such, stored
 * through the same storage as uploads (written first, their rows after).
 */
import { putBytes } from "../storage/put-bytes.server.ts";
import { crc32, deflateSync } from "node:zlib";
import { PDFDocument, StandardFonts } from "pdf-lib";
import type { AppServices } from "../../context.ts";
import { DOCUMENT_KINDS, type DocumentKind, requiredDocuments } from "../../domain/kyc/documents.ts";
import { maskPan } from "../../domain/kyc/profile-schema.ts";
import { maskAccount } from "../../domain/kyc/references-bank-schema.ts";
import { encrypt, hmac } from "../crypto.server.ts";
import { panKey } from "../kyc/profile.server.ts";
import {
  borrowerAddresses,
  borrowerBankAccounts,
  borrowerDocuments,
  borrowerEmployment,
  borrowerProfiles,
  borrowerReferences,
  consents,
} from "../db/schema.ts";

export const DEMO_BORROWER_NAME = "Asha Verma";
const DEMO_PAN = "DMOPV9001Z";
const DEMO_ACCOUNT = "50100123456789";

type Services = Pick<AppServices, "db" | "config" | "keyring" | "storage" | "now">;
export interface DemoFile {
  kind: DocumentKind;
  key: string;
  size: number;
  sha256: string;
  contentType: "application/pdf" | "image/png";
  name: string;
}

/** A one-page PDF that says it is a sample. */
async function samplePdf(title: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([420, 297]);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  page.drawText(title, { x: 32, y: 240, size: 18, font });
  page.drawText(`Sample for the demo borrower ${DEMO_BORROWER_NAME}.`, { x: 32, y: 200, size: 12, font });
  page.drawText("Not a real document.", { x: 32, y: 180, size: 12, font });
  return pdf.save();
}

/** A plain 96 × 96 PNG in the brand's blue: the demo selfie. */
function samplePng(): Buffer {
  const size = 96;
  const chunk = (type: string, body: Buffer) => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(body.length);
    const typed = Buffer.concat([Buffer.from(type, "ascii"), body]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([head, typed, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(size * 3, Buffer.from([0x1d, 0x5f, 0xd1]))]);
  const pixels = Buffer.concat(Array.from({ length: size }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(pixels)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** Writes the sample documents and the selfie to storage (before their rows: write the object, then commit its row). */
export async function storeDemoFiles(services: Services): Promise<DemoFile[]> {
  const kinds: DocumentKind[] = [...requiredDocuments("salaried"), "selfie"];
  const files: DemoFile[] = [];
  for (const kind of kinds) {
    const selfie = kind === "selfie";
    const bytes = selfie ? samplePng() : await samplePdf(DOCUMENT_KINDS[kind]);
    const stored = await putBytes(services.storage, bytes);
    files.push({
      kind,
      key: stored.key,
      size: bytes.byteLength,
      sha256: stored.sha256,
      contentType: selfie ? "image/png" : "application/pdf",
      name: selfie ? "selfie.png" : `${kind}.pdf`,
    });
  }
  return files;
}

/** The seven sections' rows for the demo borrower, in the seed's transaction. */
export async function insertDemoProfile(
  services: Services,
  { userId, files, at }: { userId: string; files: readonly DemoFile[]; at: Date },
) {
  const tx = services.db;
  await tx.insert(borrowerProfiles).values({
    userId,
    fullName: DEMO_BORROWER_NAME,
    dateOfBirth: "1990-04-12",
    gender: "female",
    email: "asha.verma@example.invalid",
    panEnc: encrypt(services.keyring, DEMO_PAN),
    panHmac: hmac(panKey(services), DEMO_PAN),
    panMasked: maskPan(DEMO_PAN),
    aadhaarLast4: "4321",
    maritalStatus: "married",
    updatedAt: at,
  });
  await tx.insert(consents).values(
    (["kyc", "communications"] as const).map((purpose) => ({
      userId,
      purpose,
      granted: true,
      ip: null,
      userAgent: "demo seed",
      createdAt: at,
    })),
  );
  await tx.insert(borrowerAddresses).values({
    userId,
    currentLine1: "Flat 12, Shanti Apartments, MG Road",
    currentPincode: "411001",
    currentCity: "Pune",
    currentDistrict: "Pune",
    currentState: "Maharashtra",
    residenceType: "rented",
    yearsAtAddress: 4,
    permanentSame: true,
    updatedAt: at,
  });
  await tx.insert(borrowerEmployment).values({
    userId,
    employmentType: "salaried",
    employerName: "Sample Software Services Pvt Ltd",
    designation: "Senior analyst",
    netMonthlyIncomePaise: 75_000_00,
    existingEmiPaise: 0,
    salaryDay: 1,
    monthsWithEmployer: 38,
    updatedAt: at,
  });
  await tx.insert(borrowerBankAccounts).values({
    userId,
    holderName: DEMO_BORROWER_NAME,
    accountNumberEnc: encrypt(services.keyring, DEMO_ACCOUNT),
    accountMasked: maskAccount(DEMO_ACCOUNT),
    ifsc: "HDFC0000001",
    bankName: "HDFC Bank",
    accountType: "savings",
    nameAtBank: DEMO_BORROWER_NAME.toUpperCase(),
    nameMatchScore: 100,
    verifiedAt: at,
    updatedAt: at,
  });
  await tx.insert(borrowerReferences).values([
    { userId, position: 1, name: "Ravi Verma", relation: "spouse", mobile: "9000000002", updatedAt: at },
    { userId, position: 2, name: "Neha Kulkarni", relation: "colleague", mobile: "9000000003", updatedAt: at },
  ]);
  await tx.insert(borrowerDocuments).values(
    files.map((f) => ({
      userId,
      kind: f.kind,
      contentType: f.contentType,
      sizeBytes: f.size,
      sha256: f.sha256,
      storageKey: f.key,
      originalName: f.name,
      uploadedAt: at,
    })),
  );
}
