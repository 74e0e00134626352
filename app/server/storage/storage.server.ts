import { createHash, randomUUID } from "node:crypto";
import { constants, createReadStream, createWriteStream, mkdirSync } from "node:fs";
import { access, open, readdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { type Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Keyring } from "../crypto.server.ts";
import { fileKeyring, isSealed, openStream, SEALED_MAGIC, sealStream } from "./sealed-stream.server.ts";

export interface StoredFile {
  key: string;
  size: number;
  sha256: string;
  /** The first 16 and last 1024 bytes, for judging the type by content. */
  head: Uint8Array;
  tail: Uint8Array;
  tooLarge: boolean;
}

/** An object under docs/ and when it was last written. */
export interface ListedFile {
  key: string;
  modifiedAt: Date;
}

/**
 * Where files live: outside the web root, behind this interface; the data directory
 * (createLocalStorage) or an S3-compatible bucket (s3-storage.server.ts). Keys are
 * `tmp/<uuid>` (an upload being received, always on this machine's disk) and `docs/<uuid>`.
 */
export interface FileStorage {
  /**
   * Streams `source` to a temporary object, never holding it whole in memory;
   * stops keeping bytes past `maxBytes` (the result says `tooLarge`). If the
   * source fails (a cut-off or abandoned upload), nothing stays behind and the
   * promise rejects.
   */
  writeTemp(source: Readable, maxBytes: number): Promise<StoredFile>;
  /**
   * Keeps a temporary object for good under a new `docs/` key, returned once it is stored; the
   * caller commits the row naming it after (an object no row names is swept: sweep.server.ts).
   */
  commit(tempKey: string): Promise<string>;
  /** The file's bytes as they were uploaded. */
  read(key: string): Readable;
  remove(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  /** Removes temporary objects not written to for `idleMs` (left by a killed process); returns how many. */
  cleanTemp(idleMs: number): Promise<number>;
  /** Seals files kept in clear by an earlier version; returns how many. */
  sealLegacyFiles(): Promise<number>;
  /** Every object under docs/, in no particular order. */
  list(): AsyncIterable<ListedFile>;
  /**
   * Rejects unless files can be kept now, within `timeoutMs`: the bucket answers for itself (a missing
   * bucket, refused credentials or no route to it all reject), or the data directory's uploads can be written.
   */
  check(timeoutMs: number): Promise<void>;
  /** Releases connections (a bucket's); the storage is not used after. */
  close(): void;
}

/** Counts, hashes and keeps the head and tail of what passes; past `maxBytes` it passes nothing more. */
function meter(maxBytes: number) {
  const hash = createHash("sha256");
  const facts = { size: 0, head: new Uint8Array(0), tail: new Uint8Array(0), tooLarge: false, sha256: "" };
  const transform = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      facts.size += chunk.length;
      if (facts.size > maxBytes) facts.tooLarge = true;
      if (facts.tooLarge) return callback();
      if (facts.head.length < 16) facts.head = Buffer.concat([facts.head, chunk]).subarray(0, 16);
      facts.tail = Buffer.concat([facts.tail, chunk]).subarray(-1024);
      hash.update(chunk);
      callback(null, chunk);
    },
    flush(callback) {
      facts.sha256 = hash.digest("hex");
      callback();
    },
  });
  return { transform, facts };
}

/** Whether `key` is a storage key (`tmp/<uuid>` or `docs/<uuid>`): nothing else reaches a path or a bucket. */
export const isStorageKey = (key: string) => /^(tmp|docs)\/[a-z0-9-]+$/i.test(key);

/** The file of `key` under `root`. */
export function localPath(root: string, key: string) {
  if (!isStorageKey(key)) throw new Error("bad storage key");
  return path.join(root, key);
}

/**
 * Files under `root` (the data directory's uploads/), each sealed with
 * AES-256-GCM under a key derived from ENCRYPTION_KEY (sealed-stream.server.ts)
 * and readable by this process's user only (0600, directories 0700).
 */
export function createLocalStorage(root: string, keyring: Keyring): FileStorage {
  const keys = fileKeyring(keyring);
  for (const dir of ["tmp", "docs"]) mkdirSync(path.join(root, dir), { recursive: true, mode: 0o700 });
  const full = (key: string) => localPath(root, key);
  const removeQuietly = (file: string) => rm(file, { force: true }).catch(() => {});

  return {
    async writeTemp(source, maxBytes) {
      const key = `tmp/${randomUUID()}`;
      const file = full(key);
      const { transform, facts } = meter(maxBytes);
      // The pipeline is set up before anything is awaited: an error of the source is always handled.
      try {
        await pipeline(source, transform, sealStream(keys), createWriteStream(file, { flags: "wx", mode: 0o600 }));
      } catch (error) {
        await removeQuietly(file);
        throw error;
      }
      return { key, size: facts.size, sha256: facts.sha256, head: facts.head, tail: facts.tail, tooLarge: facts.tooLarge };
    },
    async commit(tempKey) {
      const key = `docs/${randomUUID()}`;
      await rename(full(tempKey), full(key));
      return key;
    },
    read(key) {
      const opened = openStream(keys);
      const source = createReadStream(full(key));
      source.on("error", (error) => opened.destroy(error));
      return source.pipe(opened);
    },
    async remove(key) {
      await rm(full(key), { force: true });
    },
    async exists(key) {
      return stat(full(key)).then(
        () => true,
        () => false,
      );
    },
    async cleanTemp(idleMs) {
      const dir = path.join(root, "tmp");
      const cutoff = Date.now() - idleMs;
      let removed = 0;
      for (const name of await readdir(dir)) {
        const file = path.join(dir, name);
        const info = await stat(file).catch(() => null);
        if (info && info.mtimeMs <= cutoff) {
          await removeQuietly(file);
          removed++;
        }
      }
      return removed;
    },
    async sealLegacyFiles() {
      const dir = path.join(root, "docs");
      let sealed = 0;
      for (const name of await readdir(dir)) {
        const file = path.join(dir, name);
        // Judged and read through one descriptor: another process sealing the same file at once is harmless.
        const handle = await open(file, "r").catch(() => null);
        if (!handle) continue;
        try {
          const head = Buffer.alloc(SEALED_MAGIC.length);
          await handle.read(head, 0, head.length, 0);
          if (isSealed(head)) continue;
          const temp = path.join(root, "tmp", randomUUID());
          try {
            await pipeline(
              handle.createReadStream({ start: 0, autoClose: false }),
              sealStream(keys),
              createWriteStream(temp, { flags: "wx", mode: 0o600 }),
            );
            await rename(temp, file);
          } catch (error) {
            await removeQuietly(temp);
            throw error;
          }
          sealed++;
        } finally {
          await handle.close();
        }
      }
      return sealed;
    },
    async *list() {
      const dir = path.join(root, "docs");
      for (const name of await readdir(dir)) {
        const info = await stat(path.join(dir, name)).catch(() => null);
        if (info?.isFile() && isStorageKey(`docs/${name}`)) yield { key: `docs/${name}`, modifiedAt: info.mtime };
      }
    },
    async check() {
      for (const dir of ["tmp", "docs"]) await access(path.join(root, dir), constants.W_OK);
    },
    close() {},
  };
}
