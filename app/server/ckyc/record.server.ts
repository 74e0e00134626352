// What the registry is sent and searched with (docs/product.md "CKYC"), read from the borrower's KYC
// sections with their id in every query: the PAN decrypted, the documents read from storage only when
// the provider asks for their bytes.
import type { Readable } from "node:stream";
import { and, eq, inArray } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import { decrypt } from "../crypto.server.ts";
import { borrowerAddresses, borrowerDocuments, borrowerProfiles, users } from "../db/schema.ts";
import type { CkycAddress, CkycDocument, CkycUpload } from "./provider.server.ts";

type Services = Pick<AppServices, "db" | "keyring" | "storage">;

/** The documents the registry's template takes, and the part each plays. */
const DOCUMENT_ROLES = { selfie: "photo", pan_card: "identity", aadhaar_front: "address", aadhaar_back: "address" } as const;

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The borrower's PAN and date of birth for a search; null without a profile. */
export async function ckycSearchOf({ db, keyring }: Pick<AppServices, "db" | "keyring">, userId: string) {
  const [p] = await db
    .select({ panEnc: borrowerProfiles.panEnc, dateOfBirth: borrowerProfiles.dateOfBirth })
    .from(borrowerProfiles)
    .where(eq(borrowerProfiles.userId, userId));
  return p ? { pan: decrypt(keyring, p.panEnc), dateOfBirth: p.dateOfBirth } : null;
}

type AddressRow = typeof borrowerAddresses.$inferSelect;

function addressesOf(a: AddressRow): { current: CkycAddress; permanent: CkycAddress } {
  const current = {
    line1: a.currentLine1 ?? "",
    line2: a.currentLine2,
    city: a.currentCity,
    district: a.currentDistrict,
    state: a.currentState,
    pincode: a.currentPincode,
  };
  const permanent =
    a.permanentSame || !a.permanentPincode
      ? current
      : {
          line1: a.permanentLine1 ?? "",
          line2: a.permanentLine2,
          city: a.permanentCity ?? "",
          district: a.permanentDistrict ?? "",
          state: a.permanentState ?? "",
          pincode: a.permanentPincode,
        };
  return { current, permanent };
}

/** The borrower's record for the registry; null when the profile or the address is missing. */
export async function ckycUploadOf(services: Services, userId: string): Promise<CkycUpload | null> {
  const { db } = services;
  const [row] = await db
    .select({ profile: borrowerProfiles, address: borrowerAddresses, mobile: users.mobile })
    .from(users)
    .innerJoin(borrowerProfiles, eq(borrowerProfiles.userId, users.id))
    .innerJoin(borrowerAddresses, eq(borrowerAddresses.userId, users.id))
    .where(eq(users.id, userId));
  if (!row) return null;
  const docs = await db
    .select()
    .from(borrowerDocuments)
    .where(and(eq(borrowerDocuments.userId, userId), inArray(borrowerDocuments.kind, Object.keys(DOCUMENT_ROLES) as never[])));
  const documents: CkycDocument[] = docs.map((d) => ({
    role: DOCUMENT_ROLES[d.kind as keyof typeof DOCUMENT_ROLES],
    kind: d.kind,
    contentType: d.contentType,
    sha256: d.sha256,
    sizeBytes: d.sizeBytes,
    bytes: () => bytesOf(services.storage.read(d.storageKey)),
  }));
  const { current, permanent } = addressesOf(row.address);
  const p = row.profile;
  const gender = p.gender === "female" || p.gender === "male" || p.gender === "other" ? p.gender : null;
  return {
    reference: userId,
    name: p.fullName,
    dateOfBirth: p.dateOfBirth,
    gender,
    pan: decrypt(services.keyring, p.panEnc),
    currentAddress: current,
    permanentAddress: permanent,
    mobile: row.mobile,
    email: p.email,
    documents,
  };
}
