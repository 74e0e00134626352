// What the local stand-ins of outside services (the checkout, the mandate provider) share: each
// keeps its own record of what it was asked, one JSON file per record under the data directory (so
// every process sees it); each signs what it sends back as the real provider would, with the
// project's HMAC (crypto.server.ts `hmac`, checked by `safeEqual`).
import { randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";

/** Money a local stand-in captured for the local gateway to settle: a checkout payment, or an autopay debit (the local mandate stand-in's). */
export interface LocalCapture {
  paymentId: string;
  orderId: string | null;
  amountPaise: number;
  capturedAt: string;
  method: "upi" | "emandate";
  description: string;
}

/** A stand-in's statements (docs/decisions/0005-reconciliation-formats.md), written to `dir` as the files a provider would offer for download. */
export async function writeStatements(dir: string, files: readonly { name: string; csv: string }[]) {
  if (files.length === 0) return;
  await mkdir(dir, { recursive: true });
  for (const f of files) await writeFile(path.join(dir, f.name), f.csv);
}

/** A stand-in's records in `dir`, one file each, named by an id that `idPattern` accepts (anything else is not found). */
export function jsonRecords<T extends { id: string }>(dir: string, idPattern: RegExp) {
  const file = (id: string) => path.join(dir, `${id}.json`);
  const read = async (id: string): Promise<T | null> => {
    if (!idPattern.test(id)) return null;
    try {
      return JSON.parse(await readFile(file(id), "utf8")) as T;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
  };
  return {
    read,
    /** Replaces a record whole (written aside, then renamed: a reader never sees half of it). */
    async write(record: T) {
      const tmp = `${file(record.id)}.${process.pid}.${randomBytes(4).toString("hex")}`;
      await writeFile(tmp, JSON.stringify(record));
      await rename(tmp, file(record.id));
    },
    /** Every record, in no particular order (none when the folder does not exist yet). */
    async list(): Promise<T[]> {
      const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return [] as string[];
        throw error;
      });
      const ids = names.filter((n) => n.endsWith(".json")).map((n) => n.slice(0, -5));
      const found: T[] = [];
      for (const id of ids.filter((i) => idPattern.test(i))) {
        const record = await read(id);
        if (record) found.push(record);
      }
      return found;
    },
    /** A new record; an id already taken throws. */
    async create(record: T) {
      await mkdir(dir, { recursive: true });
      await writeFile(file(record.id), JSON.stringify(record), { flag: "wx" });
    },
  };
}
