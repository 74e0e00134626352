import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { Transform, type TransformCallback } from "node:stream";
import type { Keyring } from "../crypto.server.ts";

/**
 * Files at rest, sealed with AES-256-GCM in segments so they can be written
 * and read as streams and every byte released is already authenticated:
 *
 *   "SLF1" | key id length (1 byte) | key id | salt (16 bytes) | segment…
 *
 * Each segment seals up to 64 KiB of the file (ciphertext, then its 16-byte
 * tag) under a key derived for this file (HKDF-SHA-256 of the keyring's key
 * with the file's salt) and a nonce of the segment's number and a flag for the
 * last one, so segments cannot be reordered, dropped or cut off unnoticed.
 * The last segment may be empty (a file of a whole number of segments).
 */
export const SEALED_MAGIC = Buffer.from("SLF1");
export const SEGMENT_BYTES = 64 * 1024;
const TAG_BYTES = 16;
const SALT_BYTES = 16;
const INFO = "sugam loans: kyc file segment key v1";

const fileKey = (master: Buffer, salt: Buffer) => Buffer.from(hkdfSync("sha256", master, salt, INFO, 32));

function nonce(segment: number, last: boolean): Buffer {
  const n = Buffer.alloc(12);
  n.writeUIntBE(segment, 4, 6);
  n[11] = last ? 1 : 0;
  return n;
}

/** Encrypts a stream into the sealed format with the keyring's current key. */
export function sealStream(keyring: Keyring): Transform {
  const salt = randomBytes(SALT_BYTES);
  const key = fileKey(keyring.current.key, salt);
  const keyId = Buffer.from(keyring.current.id);
  if (keyId.length > 255) throw new Error("key id too long");
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let segment = 0;
  const seal = (plain: Buffer, last: boolean) => {
    const cipher = createCipheriv("aes-256-gcm", key, nonce(segment++, last));
    return Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
  };
  return new Transform({
    construct(callback) {
      this.push(Buffer.concat([SEALED_MAGIC, Buffer.from([keyId.length]), keyId, salt]));
      callback();
    },
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      pending.push(chunk);
      pendingBytes += chunk.length;
      // Keep at least one byte back, so the last segment is always sealed by flush().
      while (pendingBytes > SEGMENT_BYTES) {
        const all = Buffer.concat(pending);
        this.push(seal(all.subarray(0, SEGMENT_BYTES), false));
        pending = [all.subarray(SEGMENT_BYTES)];
        pendingBytes = all.length - SEGMENT_BYTES;
      }
      callback();
    },
    flush(callback) {
      this.push(seal(Buffer.concat(pending), true));
      pending = [];
      callback();
    },
  });
}

/** Decrypts a sealed stream; a wrong key, a changed byte or a cut-off file is an error, never plaintext. */
export function openStream(keyring: Keyring): Transform {
  let buffered: Buffer = Buffer.alloc(0);
  let key: Buffer | null = null;
  let segment = 0;
  const open = (sealed: Buffer, last: boolean) => {
    if (!key) throw new Error("sealed file: no header");
    const decipher = createDecipheriv("aes-256-gcm", key, nonce(segment++, last));
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)), decipher.final()]);
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk;
      try {
        if (!key) {
          if (buffered.length < SEALED_MAGIC.length + 1) return callback();
          if (!buffered.subarray(0, SEALED_MAGIC.length).equals(SEALED_MAGIC)) throw new Error("not a sealed file");
          const idLength = buffered[SEALED_MAGIC.length] ?? 0;
          const headerBytes = SEALED_MAGIC.length + 1 + idLength + SALT_BYTES;
          if (buffered.length < headerBytes) return callback();
          const keyId = buffered.subarray(SEALED_MAGIC.length + 1, SEALED_MAGIC.length + 1 + idLength).toString();
          const master = keyring.all.get(keyId);
          if (!master) throw new Error(`sealed file: unknown key id ${keyId}`);
          key = fileKey(master, buffered.subarray(headerBytes - SALT_BYTES, headerBytes));
          buffered = buffered.subarray(headerBytes);
        }
        // A full segment is released only once a byte after it has arrived: the last one waits for flush().
        while (buffered.length > SEGMENT_BYTES + TAG_BYTES) {
          this.push(open(buffered.subarray(0, SEGMENT_BYTES + TAG_BYTES), false));
          buffered = buffered.subarray(SEGMENT_BYTES + TAG_BYTES);
        }
        callback();
      } catch (error) {
        callback(error as Error);
      }
    },
    flush(callback) {
      try {
        if (!key || buffered.length < TAG_BYTES) throw new Error("sealed file: cut off");
        this.push(open(buffered, true));
        callback();
      } catch (error) {
        callback(error as Error);
      }
    },
  });
}

/** True when the first bytes of a file are a sealed file's. */
export const isSealed = (head: Uint8Array) => Buffer.from(head.subarray(0, SEALED_MAGIC.length)).equals(SEALED_MAGIC);

/** The keyring for files: each key derived from the matching ENCRYPTION_KEY, never that key itself. */
export function fileKeyring(keyring: Keyring): Keyring {
  const derive = (key: Buffer) => Buffer.from(hkdfSync("sha256", key, Buffer.alloc(0), "sugam loans: kyc files v1", 32));
  return {
    current: { id: keyring.current.id, key: derive(keyring.current.key) },
    all: new Map([...keyring.all].map(([id, key]) => [id, derive(key)])),
  };
}
