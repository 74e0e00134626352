// Generated files (the KFS and agreement, the signed copy, the revised KFS) kept in file storage
// (docs/product.md "Key Fact Statement, signing and the signed agreement"): the object is written
// and committed first, the row naming it after; a flow whose rows never commit removes what it wrote.
import { Readable } from "node:stream";
import type { AppServices } from "../../context.ts";
import { keyNamed } from "./key-columns.server.ts";
import type { FileStorage } from "./storage.server.ts";

export interface PutBytes {
  key: string;
  /** SHA-256 of the bytes as storage received them (hex). */
  sha256: string;
}

/** Stores bytes as an object before the row that names it is written (what `storingObjects` hands its flow). */
export type Put = (bytes: Uint8Array) => Promise<PutBytes>;

/** Stores `bytes` as one committed object and returns its key: the object exists before any row names it. */
export async function putBytes(storage: FileStorage, bytes: Uint8Array): Promise<PutBytes> {
  const temp = await storage.writeTemp(Readable.from([Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)]), bytes.byteLength);
  if (temp.tooLarge || temp.size !== bytes.byteLength) {
    await storage.remove(temp.key).catch(() => undefined);
    throw new Error(`storage received ${temp.size} bytes of ${bytes.byteLength}`);
  }
  try {
    return { key: await storage.commit(temp.key), sha256: temp.sha256 };
  } catch (error) {
    await storage.remove(temp.key).catch(() => undefined);
    throw error;
  }
}

/**
 * Runs `flow` (which stores bytes with `put`, then commits the rows naming them); if it fails, the
 * objects it stored are removed, each only once no row names it (a commit whose answer was lost
 * may have landed), best-effort: what is left is an orphan, for the sweep.
 */
export async function storingObjects<T>(services: Pick<AppServices, "db" | "storage" | "log">, flow: (put: Put) => Promise<T>): Promise<T> {
  const written: string[] = [];
  const put: Put = async (bytes) => {
    const stored = await putBytes(services.storage, bytes);
    written.push(stored.key);
    return stored;
  };
  try {
    return await flow(put);
  } catch (error) {
    for (const key of written) {
      try {
        if (!(await keyNamed(services.db, key))) await services.storage.remove(key);
      } catch (removal) {
        services.log.warn({ err: removal, key }, "a stored file whose row was not written is left for the orphan sweep");
      }
    }
    throw error;
  }
}
