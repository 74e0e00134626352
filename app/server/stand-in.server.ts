// What the local stand-ins of outside services (the checkout, the mandate provider) share: each
// keeps its own record of what it was asked, one JSON file per record under the data directory (so
// every process sees it); each signs what it sends back as the real provider would, with the
// project's HMAC (crypto.server.ts `hmac`, checked by `safeEqual`).
import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";

/** A stand-in's records in `dir`, one file each, named by an id that `idPattern` accepts (anything else is not found). */
export function jsonRecords<T extends { id: string }>(dir: string, idPattern: RegExp) {
  const file = (id: string) => path.join(dir, `${id}.json`);
  return {
    async read(id: string): Promise<T | null> {
      if (!idPattern.test(id)) return null;
      try {
        return JSON.parse(await readFile(file(id), "utf8")) as T;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
    },
    /** Replaces a record whole (written aside, then renamed: a reader never sees half of it). */
    async write(record: T) {
      const tmp = `${file(record.id)}.${process.pid}.${randomBytes(4).toString("hex")}`;
      await writeFile(tmp, JSON.stringify(record));
      await rename(tmp, file(record.id));
    },
    /** A new record; an id already taken throws. */
    async create(record: T) {
      await mkdir(dir, { recursive: true });
      await writeFile(file(record.id), JSON.stringify(record), { flag: "wx" });
    },
  };
}
