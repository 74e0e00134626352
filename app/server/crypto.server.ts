import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");
/** SHA-256 of raw bytes, hex. */
export const sha256Bytes = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** A keyed hash (HMAC-SHA-256): finds equal secrets without storing them. */
export const hmac = (key: string, value: string) => createHmac("sha256", key).update(value).digest("hex");

export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

/** A URL-safe random token with `bytes` of entropy. */
export const randomToken = (bytes = 32) => randomBytes(bytes).toString("base64url");

/**
 * AES-256-GCM with a key id stored beside each value so keys can rotate:
 * "v1:<keyId>:<iv>:<tag>:<ciphertext>" (base64url parts).
 */
export interface Keyring {
  current: { id: string; key: Buffer };
  all: Map<string, Buffer>;
}

export function keyringFromHex(hexKey: string, id = "k1", older: Record<string, string> = {}): Keyring {
  const key = Buffer.from(hexKey, "hex");
  if (key.length !== 32) throw new Error("encryption key must be 32 bytes");
  const all = new Map<string, Buffer>([[id, key]]);
  for (const [oldId, hex] of Object.entries(older)) all.set(oldId, Buffer.from(hex, "hex"));
  return { current: { id, key }, all };
}

export function encrypt(keyring: Keyring, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyring.current.key, iv);
  const data = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return ["v1", keyring.current.id, iv.toString("base64url"), tag.toString("base64url"), data.toString("base64url")].join(":");
}

export function decrypt(keyring: Keyring, sealed: string): string {
  const [version, keyId, iv, tag, data] = sealed.split(":");
  if (version !== "v1" || !keyId || !iv || !tag || data === undefined) throw new Error("not an encrypted value");
  const key = keyring.all.get(keyId);
  if (!key) throw new Error(`unknown encryption key id ${keyId}`);
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
}
