import { createHash, randomUUID } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";

export interface StoredFile {
  key: string;
  size: number;
  sha256: string;
  /** The first 16 and last 1024 bytes, for judging the type by content. */
  head: Uint8Array;
  tail: Uint8Array;
  tooLarge: boolean;
}

/** Where uploads live: outside the web root, behind this interface (an S3-compatible one can come later). */
export interface FileStorage {
  /** Streams `source` to a temporary object, never holding it whole in memory; stops counting at `maxBytes`. */
  writeTemp(source: Readable, maxBytes: number): Promise<StoredFile>;
  commit(tempKey: string): Promise<string>;
  read(key: string): Readable;
  remove(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
}

export function createLocalStorage(root: string): FileStorage {
  const full = (key: string) => {
    if (!/^[a-z0-9/_-]+$/i.test(key)) throw new Error("bad storage key");
    return path.join(root, key);
  };
  return {
    async writeTemp(source, maxBytes) {
      const key = `tmp/${randomUUID()}`;
      await mkdir(path.join(root, "tmp"), { recursive: true });
      const out = createWriteStream(full(key), { flags: "wx" });
      const hash = createHash("sha256");
      let size = 0;
      let head = new Uint8Array(0);
      let tail = new Uint8Array(0);
      let tooLarge = false;
      await new Promise<void>((resolve, reject) => {
        source.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            tooLarge = true;
            source.resume();
            return;
          }
          if (head.length < 16) head = Buffer.concat([head, chunk]).subarray(0, 16);
          tail = Buffer.concat([tail, chunk]).subarray(-1024);
          hash.update(chunk);
          if (!out.write(chunk)) {
            source.pause();
            out.once("drain", () => source.resume());
          }
        });
        source.on("end", () => out.end(resolve));
        source.on("error", reject);
        out.on("error", reject);
      });
      return { key, size, sha256: hash.digest("hex"), head, tail, tooLarge };
    },
    async commit(tempKey) {
      const key = `docs/${randomUUID()}`;
      await mkdir(path.join(root, "docs"), { recursive: true });
      await rename(full(tempKey), full(key));
      return key;
    },
    read: (key) => createReadStream(full(key)),
    async remove(key) {
      await rm(full(key), { force: true });
    },
    async exists(key) {
      return stat(full(key)).then(
        () => true,
        () => false,
      );
    },
  };
}
