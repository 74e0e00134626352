// The central KYC registry (CKYC, run by CERSAI; docs/product.md "CKYC"): one interface and the
// deterministic local stand-in a fresh clone uses, chosen by CKYC_PROVIDER. There is no real
// implementation: CERSAI offers reporting entities no public HTTP API to build and test one against.
import { createHash } from "node:crypto";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { CKYC_NUMBER } from "../../domain/ckyc.ts";
import { hmac } from "../crypto.server.ts";
import { jsonRecords } from "../stand-in.server.ts";

/** A document the registry's template takes: its kind and facts, and its bytes read from storage when the provider sends it. */
export interface CkycDocument {
  /** photo: the selfie; identity: the PAN card; address: the Aadhaar (masked by UIDAI), front and back. */
  role: "photo" | "identity" | "address";
  kind: string;
  contentType: string;
  sha256: string;
  sizeBytes: number;
  bytes(): Promise<Buffer>;
}

export interface CkycAddress {
  line1: string;
  line2: string | null;
  city: string;
  district: string;
  state: string;
  pincode: string;
}

/** What the registry's individual KYC template needs, from what the borrower gave us. */
export interface CkycUpload {
  /** Our reference for this upload (the borrower's user id): the same borrower is one record. */
  reference: string;
  name: string;
  dateOfBirth: string;
  gender: "female" | "male" | "other" | null;
  pan: string;
  currentAddress: CkycAddress;
  permanentAddress: CkycAddress;
  mobile: string | null;
  email: string | null;
  documents: CkycDocument[];
}

/**
 * The registry. A thrown error is a failure to try again later; a `CkycRefusal`'s message is the
 * registry's reason, safe to keep and show (it names no personal data).
 */
export interface CkycProvider {
  readonly name: string;
  /** The registry's record for this PAN and date of birth, if it holds one. */
  search(q: { pan: string; dateOfBirth: string }): Promise<{ ckycNumber: string } | null>;
  /** Uploads the record; answers with its number (the one already given, for a PAN uploaded before). */
  upload(record: CkycUpload): Promise<{ ckycNumber: string }>;
}

/** The registry refused or could not take the upload: `message` is its reason, without personal data. */
export class CkycRefusal extends Error {
  override name = "CkycRefusal";
}

/** The PAN's four digits that make the local stand-in fail: every upload, or only the first. */
export const LOCAL_CKYC_ALWAYS_FAILS = "9999";
export const LOCAL_CKYC_FAILS_ONCE = "9998";

interface LocalCkycRecord {
  /** The keyed hash of the PAN: the PAN itself is never in a file name (nor in the file). */
  id: string;
  ckycNumber: string | null;
  dateOfBirth: string;
  nameInitial: string;
  /** Uploads taken for this PAN (a second one answers with the same number). */
  uploads: number;
  /** Uploads refused (the PANs above). */
  failures: number;
  documents: { role: string; kind: string; sha256: string; sizeBytes: number }[];
  uploadedAt: string | null;
}

/** The key of the local stand-in's PAN hashes, from the session secret (never the secret itself). */
export const localCkycSecret = (sessionSecret: string) => hmac(sessionSecret, "local-ckyc-registry");

/** The 14-digit number the stand-in gives a PAN: from its keyed hash, so the same PAN always gets the same one. */
export function localCkycNumber(panKey: string): string {
  const n = BigInt(`0x${createHash("sha256").update(`ckyc:${panKey}`).digest("hex").slice(0, 20)}`);
  // 10^13 to 10^14 − 1: always 14 digits, never a leading 0.
  return String(10n ** 13n + (n % (9n * 10n ** 13n)));
}

/**
 * The local stand-in: one JSON file per PAN under <dataDir>/ckyc/, named by the PAN's keyed hash, so
 * every process sees what was uploaded. `search` finds a record uploaded before (the date of birth
 * must match); `upload` gives the PAN's deterministic 14-digit number, and the same number again for
 * a PAN uploaded before. A PAN whose four digits are 9999 fails every upload; 9998 fails the first
 * and succeeds after. The photo's bytes are read and checked against their hash, as the registry
 * would receive them; only their kinds, sizes and hashes are kept.
 */
export function createLocalCkyc(dataDir: string, now: () => Date, secret: string): CkycProvider {
  const dir = path.join(dataDir, "ckyc");
  const records = jsonRecords<LocalCkycRecord>(dir, /^[0-9a-f]{64}$/);
  const keyOf = (pan: string) => hmac(secret, pan.toUpperCase());
  return {
    name: "local",
    async search({ pan, dateOfBirth }) {
      const record = await records.read(keyOf(pan));
      if (!record?.ckycNumber || record.dateOfBirth !== dateOfBirth) return null;
      return { ckycNumber: record.ckycNumber };
    },
    async upload(upload) {
      await mkdir(dir, { recursive: true });
      const id = keyOf(upload.pan);
      const before = await records.read(id);
      const digits = upload.pan.slice(5, 9);
      const base: LocalCkycRecord = before ?? {
        id,
        ckycNumber: null,
        dateOfBirth: upload.dateOfBirth,
        nameInitial: upload.name.slice(0, 1),
        uploads: 0,
        failures: 0,
        documents: [],
        uploadedAt: null,
      };
      if (digits === LOCAL_CKYC_ALWAYS_FAILS || (digits === LOCAL_CKYC_FAILS_ONCE && base.failures === 0)) {
        await records.write({ ...base, failures: base.failures + 1 });
        throw new CkycRefusal(
          digits === LOCAL_CKYC_ALWAYS_FAILS
            ? "The registry rejected the record: image quality (local stand-in: PAN digits 9999 always fail)"
            : "The registry is busy, try again (local stand-in: PAN digits 9998 fail once)",
        );
      }
      const documents = [];
      for (const d of upload.documents) {
        if (
          d.role === "photo" &&
          createHash("sha256")
            .update(await d.bytes())
            .digest("hex") !== d.sha256
        )
          throw new CkycRefusal("The photo could not be read");
        documents.push({ role: d.role, kind: d.kind, sha256: d.sha256, sizeBytes: d.sizeBytes });
      }
      if (!documents.some((d) => d.role === "photo")) throw new CkycRefusal("The record has no photo");
      const ckycNumber = base.ckycNumber ?? localCkycNumber(id);
      if (!CKYC_NUMBER.test(ckycNumber)) throw new Error("the local stand-in made a number that is not 14 digits");
      await records.write({ ...base, ckycNumber, documents, uploads: base.uploads + 1, uploadedAt: now().toISOString() });
      return { ckycNumber };
    },
  };
}
