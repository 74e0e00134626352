/**
 * Property-based fuzzing of every form action and API, against the real
 * server (PGlite): generated and hostile values (any Unicode, control
 * characters, overlong, wrong types, missing, duplicated and unknown fields,
 * odd numbers) in the right and in the wrong content types, as a borrower with
 * real state behind each step, as staff and as an admin. Two rules:
 *
 *   1. no answer is a 5xx (each one is reported with its request);
 *   2. no stored row breaks the rules of the form that writes it (the Zod
 *      schemas and validators the forms use, and no control characters).
 *
 * Every property has a fixed seed: a run is reproducible.
 */
import { type StaffRole, USER_ROLES } from "../../app/domain/roles.ts";
import { generateTOTP } from "@epic-web/totp";
import { and, desc, eq, isNull } from "drizzle-orm";
import fc from "fast-check";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  addressSchema,
  employmentFields,
  employmentSchema,
  incomeSchema,
  pinCodeField,
} from "../../app/domain/kyc/address-employment-schema.ts";
import { DOCUMENT_KINDS, judgeFile, MAX_DOCUMENT_BYTES, MAX_SELFIE_BYTES, type SniffedType } from "../../app/domain/kyc/documents.ts";
import { identitySchema, maskPan, profileSchema } from "../../app/domain/kyc/profile-schema.ts";
import { bankSchema, maskAccount, NAME_MATCH_THRESHOLD, referencesSchema } from "../../app/domain/kyc/references-bank-schema.ts";
import { amountProblem, detailsSchema, REFERENCE_PATTERN } from "../../app/domain/loans/application.ts";
import { IN_PROGRESS, LOAN_STATUSES } from "../../app/domain/loans/lifecycle.ts";
import { existingEmisSchema, loanChoiceSchema } from "../../app/domain/quick-start-schemas.ts";
import { DEFAULT_POLICY_RULES, policyFormValues, policyProposalSchema } from "../../app/domain/credit-policy/rules.ts";
import { normalizeIndianMobile } from "../../app/domain/validators/mobile.ts";
import { todayIST } from "../../app/domain/india-date.ts";
import { codeSchema } from "../../app/domain/sign-in.ts";
import { signedApplication } from "../helpers/applications.ts";
import { contactSchema } from "../../app/domain/contact.ts";
import { createUserSession } from "../../app/server/auth/session.server.ts";
import { createStaffInvite, hashPassword, sealTotpSecret, userForEnrolToken } from "../../app/server/auth/staff.server.ts";
import { decrypt, sha256Bytes } from "../../app/server/crypto.server.ts";
import {
  auditLog,
  borrowerAddresses,
  borrowerBankAccounts,
  borrowerDocuments,
  borrowerEmployment,
  borrowerProfiles,
  borrowerReferences,
  consents,
  creditPolicies,
  funnelEvents,
  loanApplications,
  loanDocuments,
  presenceConnections,
  products,
  quickStarts,
  rateLimitCounters,
  sessions,
  ticketMessages,
  tickets,
  users,
  verifications,
  verificationSends,
} from "../../app/server/db/schema.ts";
import { lookupIfsc, lookupPinCode } from "../../app/server/reference/lookups.server.ts";
import { completeProfile, defaultProfile } from "../fixtures/kyc.ts";
import { latestCode } from "../helpers/outbox.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { signedInBorrower } from "../helpers/session.ts";

// A Monday morning in India (the date-of-birth window and the KFS dates follow it).
const CLOCK = new Date("2026-11-23T04:30:00Z");
const TODAY = todayIST(CLOCK);
/** Bodies larger than this may be refused by closing the connection (413 before reading): a network error there is no finding. */
const CLOSE_TOLERATED_BYTES = 64 * 1024;
const TOTP = { period: 30, digits: 6, algorithm: "SHA-1" } as const;

let app: TestServer;
let origin: string;

interface Person {
  cookie: string;
  userId: string;
  mobile: string;
}
/** qs: the quick start's borrower; kyc: the profile sections'; loan: the new-loan flows'; fresh: nothing done yet; victim: cross-origin target. */
const people = {} as Record<"qs" | "kyc" | "loan" | "fresh" | "victim" | "staff" | "admin", Person>;
const loginStaff = { email: "fuzz.officer@lender.example", password: "a long staff passphrase 4821", secret: "", userId: "" };
const pans = { qs: "QRSPK8321L", kyc: "", loan: "", victim: "" };
let mobileSerial = 6_000_000_000;
const nextMobile = () => String(mobileSerial++);

// ---- sending, counting, reporting --------------------------------------------------------------

interface Finding {
  group: string;
  route: string;
  method: string;
  path: string;
  encoding: string;
  contentType: string;
  preview: string;
  status: string;
}
const sentByRoute = new Map<string, number>();
/** Per route, how many answers of each status (or "none"): how far the generated requests got. */
const statusesByRoute = new Map<string, Map<string, number>>();
const countStatus = (label: string, status: string) => {
  const counts = statusesByRoute.get(label) ?? new Map<string, number>();
  counts.set(status, (counts.get(status) ?? 0) + 1);
  statusesByRoute.set(label, counts);
};
let sentTotal = 0;
let closedLarge = 0;
const findings: Finding[] = [];
let currentGroup = "";
let ipSerial = 1;
const nextIp = () => {
  const n = ipSerial++;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
};

const PREVIEW = 160;
const previewText = (s: string) => JSON.stringify(s.slice(0, PREVIEW)) + (s.length > PREVIEW ? ` …(${s.length} chars)` : "");
const previewBytes = (b: Uint8Array) => `${previewText(Buffer.from(b.subarray(0, PREVIEW)).toString("latin1"))} (${b.length} bytes)`;
const text = (v: unknown): string => (typeof v === "string" ? v : v === undefined ? "" : (JSON.stringify(v) ?? String(v)));

interface Shot {
  route: string;
  path: string;
  method?: string;
  cookie?: string;
  /** Content-Type and any other header; Origin is added for state-changing methods unless `origin` says otherwise. */
  headers?: Record<string, string>;
  body?: BodyInit | null;
  encoding?: string;
  preview?: string;
  size?: number;
  /** null: no Origin header; a string: this Origin. */
  origin?: string | null;
  setup?: boolean;
  /** Keep the body for the caller (otherwise it is cancelled). */
  keepBody?: boolean;
  /** Server-sent events: abort once the headers are in. */
  stream?: boolean;
}

/** How many times the server (in this process) has called console.error so far: tests/setup.ts spies on it. */
const errorsLogged = () => (console.error as unknown as { mock?: { calls: unknown[][] } }).mock?.calls ?? [];
/** A request with no answer in this time is a finding (an event stream: once its headers are in). */
const ANSWER_WITHIN_MS = 10_000;
const STREAM_HEADERS_WITHIN_MS = 3_000;

/** Sends one request; records it, and records a 5xx, a dropped connection, no answer, or an error the server logged, as a finding. */
async function fire(shot: Shot): Promise<Response | null> {
  const method = shot.method ?? "POST";
  const label = shot.setup ? `(setup) ${shot.route}` : shot.route;
  sentByRoute.set(label, (sentByRoute.get(label) ?? 0) + 1);
  sentTotal++;
  const headers: Record<string, string> = { "X-Forwarded-For": nextIp(), ...shot.headers };
  if (shot.cookie) headers.Cookie = shot.cookie;
  if (method !== "GET" && method !== "HEAD" && shot.origin !== null) headers.Origin = shot.origin ?? origin;
  const controller = new AbortController();
  const limit = shot.stream ? STREAM_HEADERS_WITHIN_MS : ANSWER_WITHIN_MS;
  const timer = setTimeout(() => controller.abort(new Error(`no answer within ${limit / 1000} s`)), limit);
  const init: RequestInit & { duplex?: "half" } = { method, headers, body: shot.body ?? null, signal: controller.signal };
  if (shot.body instanceof ReadableStream) init.duplex = "half";
  const record = (status: string) =>
    findings.push({
      group: currentGroup,
      route: shot.route,
      method,
      path: shot.path.length > 200 ? `${shot.path.slice(0, 200)}…` : shot.path,
      encoding: shot.encoding ?? "-",
      contentType: shot.headers?.["Content-Type"] ?? (shot.body instanceof FormData ? "multipart/form-data; boundary=(fetch's)" : "(none)"),
      preview: shot.preview ?? "(none)",
      status,
    });
  const loggedBefore = errorsLogged().length;
  let res: Response;
  try {
    // An absolute address, so that a path beginning "//" stays a path.
    res = await app.get(`${origin}${shot.path}`, init);
  } catch (error) {
    clearTimeout(timer);
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    if ((error as { code?: string }).code === "UND_ERR_INVALID_ARG" || (error instanceof TypeError && !cause)) throw error; // the test's own request is malformed
    countStatus(label, "none");
    if (controller.signal.aborted) record(String((controller.signal.reason as Error).message));
    else if ((shot.size ?? 0) > CLOSE_TOLERATED_BYTES) closedLarge++;
    else record(`no response (${cause?.code ?? cause?.message ?? String(error)})`);
    return null;
  }
  clearTimeout(timer);
  countStatus(label, String(res.status));
  if (res.status >= 500) record(String(res.status));
  if (shot.stream) {
    controller.abort();
    await res.body?.cancel().catch(() => {});
  } else if (!shot.keepBody) {
    await res.body?.cancel().catch(() => {});
  }
  const logged = errorsLogged().slice(loggedBefore);
  if (logged.length) {
    const first = logged[0]?.[0];
    record(
      `${res.status}, and the server logged an error (console.error): ${String(first instanceof Error ? first.message : first).slice(0, 160)}`,
    );
  }
  return res;
}

/** The 5xx of the current group, one line per (route, method, encoding, status), with its shortest body. */
function serverErrors(): string[] {
  const groups = new Map<string, { count: number; example: Finding }>();
  for (const f of findings) {
    if (f.group !== currentGroup) continue;
    const sentAs = f.route.startsWith(`${f.method} `) ? "" : ` (sent as ${f.method})`;
    const key = `${f.route}${sentAs} [${f.encoding}; Content-Type: ${f.contentType}] → ${f.status}`;
    const g = groups.get(key);
    if (!g) groups.set(key, { count: 1, example: f });
    else {
      g.count++;
      if (f.preview.length < g.example.preview.length) g.example = f;
    }
  }
  return [...groups].map(([key, g]) => `${key} ×${g.count}; shortest: ${g.example.method} ${g.example.path} body ${g.example.preview}`);
}

const form = (fields: Record<string, string>) => ({
  body: new URLSearchParams(fields).toString(),
  headers: { "Content-Type": "application/x-www-form-urlencoded" },
});

/** A setup request that must be answered with a redirect (or `expected`). */
async function setupPost(route: string, path: string, cookie: string | undefined, fields: Record<string, string>, expected = [302, 303]) {
  const res = await fire({ route, path, cookie, ...form(fields), setup: true, keepBody: true });
  if (!res || !expected.includes(res.status)) {
    throw new Error(`setup ${path} ${JSON.stringify(fields)} answered ${res?.status}: ${(await res?.text())?.slice(0, 300)}`);
  }
  await res.body?.cancel().catch(() => {});
  return res;
}
const setupGet = (route: string, path: string, cookie?: string) => fire({ route, path, method: "GET", cookie, setup: true });

/** FNV-1a of the group's name: one fixed seed per property. */
function seedOf(name: string) {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return h | 0;
}

// ---- generated values --------------------------------------------------------------------------

const CONTROL_CHARS = [
  "\u0000",
  "\u0001",
  "\u0007",
  "\b",
  "\t",
  "\n",
  "\r",
  "\u000b",
  "\u000c",
  "\u001b",
  "\u001f",
  "\u007f",
  "\u0080",
  "\u0085",
  "\u009f",
];
const UNICODE_BITS = [
  "😀",
  "👩🏽‍💻",
  "🇮🇳",
  "\u202e",
  "\u200f",
  "\u200b",
  "\ufeff",
  "مرحبا",
  "שלום",
  "e\u0301",
  "\u0301",
  "a\u0308\u0308\u0308\u0308",
  "नेहा",
  "நேஹா",
  "₹",
  "\ufffd",
  "\ud800",
  "\udfff",
  "𝕹𝖊𝖍𝖆",
  "Ｎｅｈａ",
  "\u00a0",
  "\u2028",
  "\u3000",
  "ß",
  "İ",
  "ﬁ",
];
const NASTY = [
  "",
  " ",
  " \t ",
  "null",
  "undefined",
  "NaN",
  "true",
  "[]",
  "{}",
  '{"a":1}',
  '["x","y"]',
  "[object Object]",
  "<script>alert(1)</script>",
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  "\\",
  "%",
  "%00",
  "%zz",
  "../../etc/passwd",
  "${7*7}",
  "{{7*7}}",
  "__proto__",
  "\u0000",
  "a\u0000b",
  "ABCPE0000F",
  "abcpe1234f",
  "AAAAA9999A",
  "SBIN0000000",
  "000000",
  "110001",
  "999999",
  "012345678901",
  "+91 98765 43210",
  "0091-9876543210",
  "९८७६५४३२१०",
  "٩٨٧٦٥٤٣٢١٠",
  "１２３４５６",
  "2026-02-30",
  "0000-00-00",
  "1900-01-01",
  "9999-12-31",
  "1992-06-15T00:00:00Z",
  "on",
  "yes",
  "off",
  "emi",
  "salary_advance",
  "other",
  "a@b",
  '"quoted"@example.com',
  "x@[127.0.0.1]",
  "//evil.example",
  "/\\evil.example",
  "/\t/evil.example",
  "javascript:alert(1)",
  "http://evil.example/",
  "/User/Dashboard\r\nSet-Cookie: x=1",
];
const NUMBERISH = [
  "0",
  "-0",
  "-1",
  "1",
  "00",
  "1e308",
  "-1e308",
  "1e-308",
  "1e999",
  "NaN",
  "Infinity",
  "-Infinity",
  "1_000",
  "1,000",
  "1,00,000.50",
  "₹ 50,000",
  "0.001",
  "0.005",
  "10.999",
  "1.",
  ".5",
  "0x1F",
  "0b11",
  "2147483647",
  "2147483648",
  "-2147483649",
  "4294967296",
  "9007199254740993",
  "32767",
  "32768",
  "65536",
  "1".repeat(25),
  "9".repeat(400),
  "12345678901234567890.12",
  " 42 ",
  "4 2",
  "٤٢",
  "४२",
];
const WRONG_TYPES: unknown[] = [
  123,
  -1,
  0,
  1e308,
  null,
  true,
  false,
  [],
  ["a", "b"],
  [1, [2]],
  {},
  { a: 1 },
  { $gt: "" },
  JSON.parse('{"__proto__":{"polluted":1}}'),
];

const hostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: "binary", maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary-ascii", maxLength: 30 }) },
  { weight: 3, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 3, arbitrary: fc.constantFrom(...NUMBERISH) },
  { weight: 1, arbitrary: fc.double().map(String) },
  { weight: 1, arbitrary: fc.bigInt().map(String) },
);
const hostileKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "__proto__",
    "constructor",
    "prototype",
    "toString",
    "a.b",
    "a[0]",
    "a[]",
    "[0]",
    "",
    " ",
    "intent",
    "redirectTo",
    "$ACTION_ID_abc",
    "_data",
    "index",
    "x".repeat(300),
    "name\u0000",
    "😀",
    "fullName.first",
    "pan[0]",
  ),
  fc.string({ unit: "binary", maxLength: 12 }),
);
const controlChar = fc.constantFrom(...CONTROL_CHARS);
const unicodeBit = fc.constantFrom(...UNICODE_BITS);

type Op =
  | { kind: "replace"; field: number; value: string }
  | { kind: "inject"; field: number; char: string; at: number }
  | { kind: "decorate"; field: number; prefix: string; suffix: string }
  | { kind: "drop"; field: number }
  | { kind: "dup"; field: number; value: string | null }
  | { kind: "typed"; field: number; value: unknown }
  | { kind: "choice"; field: number; pick: number }
  | { kind: "long"; field: number; length: number; char: string }
  | { kind: "extra"; name: string; value: string };

const fieldIndex = fc.nat({ max: 63 });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant("replace" as const), field: fieldIndex, value: hostileText }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("inject" as const),
      field: fieldIndex,
      char: fc.oneof(controlChar, unicodeBit),
      at: fc.nat(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("decorate" as const),
      field: fieldIndex,
      prefix: fc.oneof(fc.constantFrom("", " ", "  ", "\t", "\u00a0", "0"), unicodeBit),
      suffix: fc.oneof(fc.constantFrom("", " ", "  ", "\n", "\u3000", ".", "-"), unicodeBit),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("drop" as const), field: fieldIndex }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("dup" as const), field: fieldIndex, value: fc.option(hostileText) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("typed" as const), field: fieldIndex, value: fc.constantFrom(...WRONG_TYPES) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("choice" as const), field: fieldIndex, pick: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.oneof(
      fc.record({
        kind: fc.constant("long" as const),
        field: fieldIndex,
        length: fc.integer({ min: 10_000, max: 200_000 }),
        char: fc.constantFrom("a", "9", " ", "<", "%", "\u0000"),
      }),
      fc.record({
        kind: fc.constant("long" as const),
        field: fieldIndex,
        length: fc.integer({ min: 10_000, max: 40_000 }),
        char: fc.constantFrom("é", "😀", "\u0301", ""),
      }),
    ),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("extra" as const), name: hostileKey, value: hostileText }) },
);

const ENCODINGS = [
  [40, "urlencoded"],
  [4, "urlencoded-charset"],
  [10, "multipart"],
  [5, "json"],
  [2, "json-array"],
  [4, "text-plain"],
  [3, "multipart-no-boundary"],
  [2, "multipart-bad-boundary"],
  [3, "multipart-truncated"],
  [1, "multipart-garbage"],
  [4, "bad-escapes"],
  [2, "empty"],
  [1, "no-body"],
  [3, "binary-as-urlencoded"],
  [1, "octet-stream"],
  [3, "odd-content-type"],
  [1, "chunked"],
  [1, "oversized"],
] as const;
type Encoding = (typeof ENCODINGS)[number][1];
const encodingArb: fc.Arbitrary<Encoding> = fc.oneof(...ENCODINGS.map(([weight, name]) => ({ weight, arbitrary: fc.constant(name) })));
const ODD_TYPES = [
  "application/x-www-form-urlencoded; charset=utf-16le",
  "application/x-www-form-urlencoded; charset=bogus",
  "APPLICATION/X-WWW-FORM-URLENCODED",
  "application/x-www-form-urlencodedx",
  "multipart/form-data; boundary=",
  'multipart/form-data; boundary=""',
  "multipart/mixed; boundary=x",
  "text/html",
  "application/xml",
  "*/*",
  "",
  "application/json; charset=latin1",
  "form-data",
];
const BAD_ESCAPES = [
  "%zz",
  "%C3%28",
  "%",
  "%%",
  "%E0%A4",
  "%G0",
  "%00",
  "%FF%FE",
  "%ED%A0%80",
  "%c0%af",
  "+%2B+",
  "&&",
  "==",
  "=%=",
  "%u0041",
];

interface Plan {
  ops: Op[];
  encoding: Encoding;
  who: number;
  method: "POST" | "PUT" | "PATCH" | "DELETE";
  dataSuffix: boolean;
  reverse: boolean;
  bytes: Uint8Array;
  cut: number;
  oddType: string;
  badEscapes: string[];
  aux: string;
}
const planArb: fc.Arbitrary<Plan> = fc.record({
  ops: fc.array(opArb, { maxLength: 4 }),
  encoding: encodingArb,
  who: fc.nat({ max: 9 }),
  method: fc.oneof(
    { weight: 17, arbitrary: fc.constant("POST" as const) },
    { weight: 1, arbitrary: fc.constantFrom("PUT" as const, "PATCH" as const, "DELETE" as const) },
  ),
  dataSuffix: fc.oneof({ weight: 9, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  reverse: fc.boolean(),
  bytes: fc.uint8Array({ maxLength: 2000 }),
  cut: fc.nat(),
  oddType: fc.constantFrom(...ODD_TYPES),
  badEscapes: fc.array(fc.constantFrom(...BAD_ESCAPES), { minLength: 1, maxLength: 4 }),
  aux: hostileText,
});

/** A plan that changes nothing: the base form, urlencoded, POST, by the route's first user. */
const EMPTY_PLAN: Plan = {
  ops: [],
  encoding: "urlencoded",
  who: 0,
  method: "POST",
  dataSuffix: false,
  reverse: false,
  bytes: new Uint8Array(0),
  cut: 0,
  oddType: "text/html",
  badEscapes: ["%zz"],
  aux: "",
};

type Entries = Array<[string, unknown]>;
const insertAt = (s: string, c: string, at: number) => {
  const i = s.length ? at % (s.length + 1) : 0;
  return s.slice(0, i) + c + s.slice(i);
};

/** The form after the plan's changes: the base's fields (and the `choices` fields) replaced, broken, dropped, doubled or joined by others. */
function applyPlan(base: Record<string, string>, choices: Record<string, readonly string[]>, plan: Plan): Entries {
  let entries: Entries = Object.entries(base);
  const names = [...Object.keys(base), ...Object.keys(choices).filter((k) => !(k in base))];
  for (const op of plan.ops) {
    if (op.kind === "extra") {
      entries.push([op.name, op.value]);
      continue;
    }
    const name = names[op.field % Math.max(1, names.length)];
    if (name === undefined) continue;
    const idx = entries.findIndex(([n]) => n === name);
    const current = text(idx >= 0 ? entries[idx]?.[1] : "");
    const set = (v: unknown) => {
      if (idx >= 0) entries[idx] = [name, v];
      else entries.push([name, v]);
    };
    switch (op.kind) {
      case "replace":
        set(op.value);
        break;
      case "inject":
        set(insertAt(current, op.char, op.at));
        break;
      case "decorate":
        set(op.prefix + current + op.suffix);
        break;
      case "drop":
        entries = entries.filter(([n]) => n !== name);
        break;
      case "dup":
        entries.push([name, op.value ?? current]);
        break;
      case "typed":
        set(op.value);
        break;
      case "choice": {
        const list = choices[name];
        if (list?.length) set(list[op.pick % list.length]);
        break;
      }
      case "long": {
        const unit = op.char || current || "9";
        set(unit.repeat(Math.ceil(op.length / unit.length)).slice(0, op.length));
        break;
      }
    }
  }
  return plan.reverse ? entries.reverse() : entries;
}

function multipartText(entries: Entries, boundary: string) {
  return (
    entries
      .map(([n, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${n.replaceAll('"', "%22")}"\r\n\r\n${text(v)}\r\n`)
      .join("") + `--${boundary}--\r\n`
  );
}

interface Encoded {
  body: BodyInit | null;
  headers: Record<string, string>;
  preview: string;
  size: number;
  encoding: string;
}

/** The form in the plan's content type: the right ones, wrong ones, malformed ones. */
function encode(entries: Entries, plan: Plan): Encoded {
  const pairs = entries.map(([n, v]) => [n, text(v)] as [string, string]);
  const urlencoded = new URLSearchParams(pairs).toString();
  const utf8 = (s: string) => new Uint8Array(Buffer.from(s, "utf8"));
  const ofText = (s: string, contentType: string | null): Encoded => ({
    body: s,
    headers: contentType === null ? {} : { "Content-Type": contentType },
    preview: previewText(s),
    size: Buffer.byteLength(s),
    encoding: plan.encoding,
  });
  const ofBytes = (b: Uint8Array, contentType: string): Encoded => ({
    body: new Uint8Array(b),
    headers: { "Content-Type": contentType },
    preview: previewBytes(b),
    size: b.length,
    encoding: plan.encoding,
  });
  switch (plan.encoding) {
    case "urlencoded":
      return ofText(urlencoded, "application/x-www-form-urlencoded");
    case "urlencoded-charset":
      return ofText(urlencoded, "application/x-www-form-urlencoded;charset=UTF-8");
    case "multipart": {
      const fd = new FormData();
      for (const [n, v] of pairs) fd.append(n, v);
      const shown = pairs.map(([n, v]) => `${n}=${v}`).join("&");
      return { body: fd, headers: {}, preview: `multipart ${previewText(shown)}`, size: Buffer.byteLength(shown), encoding: plan.encoding };
    }
    case "json":
      return ofText(JSON.stringify(Object.fromEntries(entries)), "application/json");
    case "json-array":
      return ofText(JSON.stringify(entries), "application/json");
    case "text-plain":
      return ofText(pairs.map(([n, v]) => `${n}=${v}`).join("\r\n"), "text/plain");
    case "multipart-no-boundary":
      return ofText(multipartText(entries, "fuzzboundary7MA4YWxk"), "multipart/form-data");
    case "multipart-bad-boundary":
      return ofText(multipartText(entries, "realboundary7MA4YWxk"), "multipart/form-data; boundary=otherboundary9ZZ");
    case "multipart-truncated": {
      const whole = utf8(multipartText(entries, "fuzzboundary7MA4YWxk"));
      return ofBytes(
        whole.subarray(0, 1 + (plan.cut % Math.max(1, whole.length - 1))),
        "multipart/form-data; boundary=fuzzboundary7MA4YWxk",
      );
    }
    case "multipart-garbage":
      return ofBytes(plan.bytes, "multipart/form-data; boundary=fuzzboundary7MA4YWxk");
    case "bad-escapes": {
      let s = urlencoded;
      for (const [i, bad] of plan.badEscapes.entries()) s = insertAt(s, i % 2 ? bad : `&${bad}=${bad}`, plan.cut + i * 7);
      return ofText(s, "application/x-www-form-urlencoded");
    }
    case "empty":
      return ofText("", "application/x-www-form-urlencoded");
    case "no-body":
      return { body: null, headers: {}, preview: "(no body)", size: 0, encoding: plan.encoding };
    case "binary-as-urlencoded":
      return ofBytes(plan.bytes, "application/x-www-form-urlencoded");
    case "octet-stream":
      return ofBytes(plan.bytes, "application/octet-stream");
    case "odd-content-type":
      return ofText(urlencoded, plan.oddType);
    case "chunked": {
      const bytes = utf8(urlencoded);
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes);
          controller.close();
        },
      });
      return {
        body,
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        preview: `chunked ${previewText(urlencoded)}`,
        size: bytes.length,
        encoding: plan.encoding,
      };
    }
    case "oversized": {
      const padded = `${urlencoded}&pad=${"A".repeat(150_000 + (plan.cut % 250_000))}`;
      return ofText(padded, "application/x-www-form-urlencoded");
    }
  }
}

// ---- one property per route ------------------------------------------------------------------

interface Who {
  label: string;
  cookie: () => string | undefined;
}
const anonymous: Who = { label: "anonymous", cookie: () => undefined };
const as = (key: keyof typeof people): Who => ({ label: key, cookie: () => people[key].cookie });
/** Mostly the first; now and then one of the others. */
const pickWho = (who: readonly Who[], roll: number) => (roll < 7 || who.length === 1 ? who[0] : who[1 + (roll % (who.length - 1))]) as Who;

interface FormRoute {
  route: string;
  runs: number;
  who: readonly Who[];
  /** The path (and the valid form) to start from, from the state of the moment. */
  prepare: () =>
    | Promise<{ path: string; base: Record<string, string>; cookie?: string }>
    | { path: string; base: Record<string, string>; cookie?: string };
  /** Values to pick from for some fields (a function when they depend on the state set up before the tests). */
  choices?: Record<string, readonly string[]> | (() => Record<string, readonly string[]>);
}

async function fuzzForm(spec: FormRoute) {
  const seed = seedOf(spec.route);
  await fc.assert(
    fc.asyncProperty(planArb, async (plan) => {
      const { path, base, cookie } = await spec.prepare();
      const who = pickWho(spec.who, plan.who);
      const choices = typeof spec.choices === "function" ? spec.choices() : (spec.choices ?? {});
      const encoded = encode(applyPlan(base, choices, plan), plan);
      await fire({
        route: spec.route,
        path: plan.dataSuffix ? `${path}.data` : path,
        method: plan.method,
        cookie: who === spec.who[0] && cookie !== undefined ? cookie : who.cookie(),
        ...encoded,
      });
    }),
    { seed, numRuns: spec.runs },
  );
  expect(serverErrors(), `5xx answers (seed ${seed})`).toEqual([]);
}

// ---- the state each action needs --------------------------------------------------------------

async function staffMember(role: StaffRole, email: string): Promise<Person> {
  const [user] = await app.services.db
    .insert(users)
    .values({ email, role, name: `Fuzz ${role}` })
    .returning({ id: users.id });
  if (!user) throw new Error("could not create the staff member");
  const { setCookie } = await createUserSession(app.services, {
    userId: user.id,
    deviceId: `test-${role}`,
    ip: "127.0.0.1",
    userAgent: "test",
  });
  return { cookie: setCookie.split(";")[0] ?? "", userId: user.id, mobile: "" };
}

async function borrower(): Promise<Person> {
  const mobile = nextMobile();
  const { cookie, userId } = await signedInBorrower(app, mobile);
  return { cookie, userId, mobile };
}

/** A fresh session for someone (sign-out and friends end the one they are given). */
async function throwawaySession(): Promise<string> {
  const [user] = await app.services.db
    .insert(users)
    .values({ mobile: nextMobile(), mobileVerifiedAt: CLOCK, role: "borrower" })
    .returning({ id: users.id });
  if (!user) throw new Error("could not create the borrower");
  const { setCookie } = await createUserSession(app.services, {
    userId: user.id,
    deviceId: "test-throwaway",
    ip: "127.0.0.1",
    userAgent: "test",
  });
  return setCookie.split(";")[0] ?? "";
}

const QS_ANSWERS: Record<string, string>[] = [
  { product: "emi", amount: "200000" },
  { fullName: "Ravi Kumar", dateOfBirth: "1990-04-12", pan: pans.qs },
  { pincode: "560001" },
  { employmentType: "salaried", netMonthlyIncome: "60000", salaryDay: "28" },
  { existingEmis: "0", consentBureau: "on" },
  { product: "emi", tenure: "12" },
  { consentKyc: "on", consentCommunications: "on" },
];

type Kind = "emi" | "salary_advance";
const SEGMENT: Record<Kind, string> = { emi: "Emi", salary_advance: "salaryAdvance" };
const TERMS: Record<Kind, Record<string, string>> = { emi: { amount: "100000", tenure: "12" }, salary_advance: { amount: "20000" } };
const DETAILS = { purpose: "medical", purposeDetails: "Hospital bills", disbursalConsent: "yes" };
const loanPath = (kind: Kind, reference: string, step: string) => `/User/newLoan/${SEGMENT[kind]}/${reference}/${step}`;
let agreementCode: { kind: Kind; code: string } | null = null;

async function applicationsOf(userId: string, kind: Kind) {
  return app.services.db
    .select()
    .from(loanApplications)
    .where(and(eq(loanApplications.userId, userId), eq(loanApplications.product, kind)))
    .orderBy(desc(loanApplications.createdAt));
}
async function currentDocumentId(applicationId: string) {
  const [doc] = await app.services.db
    .select({ id: loanDocuments.id })
    .from(loanDocuments)
    .where(and(eq(loanDocuments.applicationId, applicationId), isNull(loanDocuments.supersededAt)));
  return doc?.id ?? null;
}

/**
 * The loan borrower's application of `kind`, brought (through the app's own
 * pages) to a state where `step` is allowed: a draft with terms, details and a
 * KFS as the step needs, or, for Step7, a signed one.
 */
async function ensureLoanStep(
  kind: Kind,
  step: "Step0" | "Step1" | "Step5" | "Step6" | "Step7",
): Promise<{ reference: string; documentId: string | null; code: string }> {
  const { cookie, userId, mobile } = people.loan;
  const route = `new loan ${SEGMENT[kind]}`;
  const rows = await applicationsOf(userId, kind);
  if (step === "Step7") {
    const done = rows.find((r) => r.status !== "draft");
    if (done) return { reference: done.reference, documentId: null, code: "" };
    const ready = await ensureLoanStep(kind, "Step6");
    await setupPost(route, loanPath(kind, ready.reference, "Step6"), cookie, {
      documentId: ready.documentId ?? "",
      accept: "yes",
      code: ready.code,
    });
    agreementCode = null;
    return { reference: ready.reference, documentId: null, code: "" };
  }
  let current = rows.find((r) => (IN_PROGRESS as readonly string[]).includes(r.status)) ?? null;
  if (current && current.status !== "draft") {
    await setupPost(route, loanPath(kind, current.reference, "Step7"), cookie, { intent: "cancel" });
    current = null;
  }
  if (!current) {
    await setupPost(route, `/User/newLoan/${SEGMENT[kind]}`, cookie, {});
    current = (await applicationsOf(userId, kind)).find((r) => r.status === "draft") ?? null;
    if (!current) throw new Error(`no ${kind} draft could be started`);
    // Step0's credit check (the borrower's consent): the offer needs it before the terms.
    await setupPost(route, loanPath(kind, current.reference, "Step0"), cookie, { intent: "credit_check", consentBureau: "on" });
  }
  const ref = current.reference;
  if (step !== "Step0" && !current.termsSavedAt) await setupPost(route, loanPath(kind, ref, "Step0"), cookie, TERMS[kind]);
  if ((step === "Step5" || step === "Step6") && !(await applicationsOf(userId, kind)).find((r) => r.reference === ref)?.detailsSavedAt) {
    await setupPost(route, loanPath(kind, ref, "Step1"), cookie, DETAILS);
  }
  let documentId = await currentDocumentId(current.id);
  if (step === "Step6" && !documentId) {
    await setupGet(route, loanPath(kind, ref, "Step5"), cookie);
    documentId = await currentDocumentId(current.id);
  }
  if (step === "Step6") {
    const [live] = await app.services.db
      .select()
      .from(verifications)
      .where(and(eq(verifications.target, mobile), eq(verifications.purpose, "agreement")));
    if (!agreementCode || agreementCode.kind !== kind || !live || live.consumedAt) {
      await setupPost(route, loanPath(kind, ref, "Step6"), cookie, { intent: "send" }, [200]);
      agreementCode = { kind, code: latestCode(app.dataDir, mobile) };
    }
  }
  return { reference: ref, documentId, code: agreementCode?.code ?? "" };
}

// ---- the suite --------------------------------------------------------------------------------

beforeAll(async () => {
  app = await startTestServer(
    {
      // Each request comes from its own address, so the per-address limits leave the fuzzing to the forms.
      TRUST_PROXY: "true",
      CONTACT_LIMIT_PER_HOUR: "1000000",
      OTP_RESEND_SECONDS: "0",
      OTP_PER_NUMBER_PER_HOUR: "1000000",
      OTP_PER_IP_PER_HOUR: "1000000",
      OTP_MAX_ATTEMPTS: "1000000",
    },
    { now: () => CLOCK },
  );
  origin = new URL(app.url).origin;

  people.staff = await staffMember("support", "fuzz.staff@lender.example");
  people.admin = await staffMember("admin", "fuzz.admin@lender.example");
  loginStaff.secret = (await generateTOTP(TOTP)).secret;
  const [officer] = await app.services.db
    .insert(users)
    .values({
      email: loginStaff.email,
      role: "credit",
      passwordHash: await hashPassword(loginStaff.password),
      totpSecretEnc: sealTotpSecret(app.services, loginStaff.secret),
      totpEnrolledAt: CLOCK,
    })
    .returning({ id: users.id });
  loginStaff.userId = officer?.id ?? "";

  people.fresh = await borrower();

  // The quick start's borrower has been through every step (so each step's form is open to them).
  people.qs = await borrower();
  for (const [step, answers] of QS_ANSWERS.entries()) {
    await setupPost("quick start", `/quickStart/Step${step}`, people.qs.cookie, { intent: "next", ...answers });
  }

  // The profile sections' borrower, the new-loan borrower and the cross-origin victim: every section filled in.
  for (const key of ["kyc", "loan", "victim"] as const) {
    people[key] = await borrower();
    const profile = defaultProfile();
    pans[key] = profile.pan;
    await completeProfile(app, people[key].cookie, profile, people[key].mobile);
  }
}, 120_000);

afterAll(async () => {
  const lines = [...sentByRoute]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([route, n]) => {
      const statuses = [...(statusesByRoute.get(route) ?? [])]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([status, count]) => `${status}×${count}`);
      return `  ${String(n).padStart(5)}  ${route}  [${statuses.join(" ")}]`;
    });
  // oxlint-disable-next-line no-console
  console.log(
    `fuzz: ${sentTotal} requests in total (besides the completeProfile fixture's for 3 borrowers)` +
      (closedLarge ? ` (${closedLarge} oversized bodies answered by closing the connection)` : "") +
      `\nper route:\n${lines.join("\n")}`,
  );
  await app?.stop();
});

describe("fuzzing the public forms", () => {
  it("POST /Contact-us", async () => {
    currentGroup = "POST /Contact-us";
    await fuzzForm({
      route: "POST /Contact-us",
      runs: 160,
      who: [anonymous, as("qs"), as("staff")],
      prepare: () => ({
        path: "/Contact-us",
        base: {
          name: "Neha Gupta",
          mobile: "9876543210",
          email: "neha@example.com",
          message: "Please call me back about my loan application.",
          website: "",
        },
      }),
      choices: { website: ["", "https://spam.example"] },
    });
  }, 60_000);

  it("POST /ClearCache", async () => {
    currentGroup = "POST /ClearCache";
    await fuzzForm({
      route: "POST /ClearCache",
      runs: 40,
      who: [anonymous, as("qs"), as("staff")],
      prepare: () => ({ path: "/ClearCache", base: {} }),
    });
  }, 30_000);

  it("POST /quickStart/Otp (send, resend, change, verify)", async () => {
    currentGroup = "POST /quickStart/Otp";
    await fuzzForm({
      route: "POST /quickStart/Otp",
      runs: 150,
      who: [anonymous, as("fresh"), as("staff")],
      prepare: () => ({
        path: "/quickStart/Otp",
        base: { intent: "send", mobile: `+91 ${nextMobile()}`, redirectTo: "/User/Dashboard", code: "123456", deviceId: "web-fuzz" },
      }),
      choices: { intent: ["send", "resend", "change", "verify", ""] },
    });
  }, 60_000);

  it("POST /quickStart/Otp with a code sent (verify: code, device id, the page to land on)", async () => {
    currentGroup = "POST /quickStart/Otp (verify)";
    const route = "POST /quickStart/Otp (verify)";
    const seed = seedOf(route);
    await fc.assert(
      fc.asyncProperty(planArb, async (plan) => {
        const mobile = nextMobile();
        // The code is asked for with a generated page to land on (kept in the pending cookie until the code is right).
        const sent = await fire({
          route,
          path: "/quickStart/Otp",
          ...form({ intent: "send", mobile, redirectTo: plan.aux }),
          encoding: "urlencoded",
          preview: previewText(`intent=send&mobile=${mobile}&redirectTo=${plan.aux}`),
        });
        const pending = sent?.headers
          .getSetCookie()
          .find((c) => c.startsWith("otp_pending="))
          ?.split(";")[0];
        if (!pending) return;
        const base = { intent: "verify", code: latestCode(app.dataDir, mobile), deviceId: `web-${mobile}` };
        const encoded = encode(applyPlan(base, { intent: ["verify", "resend", "change"] }, plan), plan);
        await fire({
          route,
          path: "/quickStart/Otp",
          method: plan.method,
          cookie: plan.who < 8 ? pending : `${pending}; ${people.fresh.cookie}`,
          ...encoded,
        });
      }),
      { seed, numRuns: 70 },
    );
    expect(serverErrors(), `5xx answers (seed ${seed})`).toEqual([]);
  }, 60_000);
});

describe("fuzzing the back office as staff and admin", () => {
  it("POST /admin/login (password stage, TOTP stage without a pending sign-in)", async () => {
    currentGroup = "POST /admin/login";
    await fuzzForm({
      route: "POST /admin/login",
      runs: 80,
      who: [anonymous, as("staff"), as("qs")],
      prepare: () => ({
        path: "/admin/login",
        base: { intent: "password", email: loginStaff.email, password: loginStaff.password, redirectTo: "/admin/presence", otp: "123456" },
      }),
      choices: {
        intent: ["password", "totp", ""],
        email: ["FUZZ.OFFICER@LENDER.EXAMPLE", "fuzz.staff@lender.example", "nobody@lender.example"],
      },
    });
  }, 60_000);

  it("POST /admin/login after the password (TOTP with a valid code, any page to land on)", async () => {
    currentGroup = "POST /admin/login (totp)";
    const route = "POST /admin/login (totp)";
    const seed = seedOf(route);
    // One account per run: an account accepts one code per time step (and locks after wrong ones).
    const [{ passwordHash }] = (await app.services.db
      .select({ passwordHash: users.passwordHash })
      .from(users)
      .where(eq(users.id, loginStaff.userId))) as [{ passwordHash: string }];
    let n = 0;
    await fc.assert(
      fc.asyncProperty(planArb, async (plan) => {
        const email = `fuzz.login${n++}@lender.example`;
        const { secret } = await generateTOTP(TOTP);
        await app.services.db.insert(users).values({
          email,
          role: plan.who < 5 ? "operations" : "admin",
          passwordHash,
          totpSecretEnc: sealTotpSecret(app.services, secret),
          totpEnrolledAt: CLOCK,
        });
        const first = await fire({
          route,
          path: "/admin/login",
          ...form({ intent: "password", email, password: loginStaff.password, redirectTo: plan.aux }),
          encoding: "urlencoded",
          preview: previewText(`intent=password&email=…&password=…&redirectTo=${plan.aux}`),
        });
        const pending = first?.headers
          .getSetCookie()
          .find((c) => c.startsWith("staff_pending="))
          ?.split(";")[0];
        if (!pending) return;
        const { otp } = await generateTOTP({ ...TOTP, secret });
        const encoded = encode(applyPlan({ intent: "totp", otp }, { intent: ["totp", "password"] }, plan), plan);
        await fire({ route, path: "/admin/login", method: plan.method, cookie: pending, ...encoded });
      }),
      { seed, numRuns: 30 },
    );
    expect(serverErrors(), `5xx answers (seed ${seed})`).toEqual([]);
  }, 60_000);

  it("POST /admin/enrol/:token", async () => {
    currentGroup = "POST /admin/enrol/:token";
    let token = "";
    let invites = 0;
    await fuzzForm({
      route: "POST /admin/enrol/:token",
      runs: 50,
      who: [anonymous, as("staff"), as("qs")],
      prepare: async () => {
        if (!token || !(await userForEnrolToken(app.services, token))) {
          token = (await createStaffInvite(app.services, { email: `fuzz.invite${invites++}@lender.example`, role: "support" })).token;
        }
        return {
          path: `/admin/enrol/${token}`,
          base: { password: "mango tree at dusk 1987", password_confirm: "mango tree at dusk 1987" },
        };
      },
    });
  }, 60_000);

  it("POST /User/Help/new and /User/Help/:ref (raise, reply, reopen, not accepted)", async () => {
    currentGroup = "POST /User/Help";
    const mine = await setupPost("help", "/User/Help/new", people.qs.cookie, {
      once: crypto.randomUUID(),
      kind: "complaint",
      category: "charges",
      subject: "A charge I do not understand",
      message: "Why was I charged ₹500 on my loan?",
    });
    const reference = /GRV-\d{10}/.exec(mine.headers.get("location") ?? "")?.[0] ?? "";
    expect(reference).not.toBe("");
    await fuzzForm({
      route: "POST /User/Help/new",
      runs: 120,
      who: [as("qs"), as("fresh"), as("staff"), anonymous],
      prepare: () => ({
        path: "/User/Help/new",
        base: {
          once: crypto.randomUUID(),
          kind: "request",
          category: "other",
          loan: "",
          subject: "A question",
          message: "How do I change my e-mail?",
        },
      }),
      choices: {
        kind: ["complaint", "request", "other"],
        category: ["applying", "data", "nothing"],
        loan: ["", "a".repeat(26), "not a loan"],
        once: ["", "not-a-uuid", "00000000-0000-4000-8000-000000000000"],
      },
    });
    await fuzzForm({
      route: "POST /User/Help/:ref",
      runs: 120,
      who: [as("qs"), as("fresh"), as("staff"), anonymous],
      prepare: () => ({
        path: `/User/Help/${reference}`,
        base: { intent: "reply", once: crypto.randomUUID(), message: "More details here." },
      }),
      choices: { intent: ["reply", "reopen", "not_accepted", "nothing"], once: ["", "not-a-uuid"] },
    });
    await fuzzForm({
      route: "POST /admin/tickets/:ref",
      runs: 120,
      who: [as("staff"), as("admin"), as("qs"), anonymous],
      prepare: () => ({
        path: `/admin/tickets/${reference}`,
        base: {
          intent: "reply",
          once: crypto.randomUUID(),
          message: "An answer.",
          then: "waiting",
          staff: people.staff.userId,
          status: "open",
        },
      }),
      choices: {
        intent: ["reply", "note", "assign", "status", "nothing"],
        then: ["in_progress", "waiting", "resolved", "closed"],
        staff: [people.admin.userId, people.qs.userId, "not-a-uuid"],
        status: ["open", "in_progress", "waiting", "resolved", "closed", "lost"],
      },
    });
  }, 120_000);

  it("POST /admin/policy (propose, confirm, withdraw) and POST /User/newLoan/:kind (start)", async () => {
    currentGroup = "POST /admin/policy";
    await fuzzForm({
      route: "POST /admin/policy",
      runs: 120,
      who: [as("admin"), as("staff"), as("qs"), anonymous],
      prepare: () => ({
        path: "/admin/policy",
        base: { intent: "propose", ...policyFormValues(DEFAULT_POLICY_RULES), minAgeYears: "22", reason: "A reason of some length." },
      }),
      choices: { intent: ["propose", "confirm", "withdraw", "nothing"], proposal: ["", "1", "999999", "not-a-number", "-1"] },
    });
    // Whatever the fuzzing proposed is withdrawn: the other tests offer under the defaults.
    await app.services.db
      .update(creditPolicies)
      .set({ status: "withdrawn", withdrawnAt: CLOCK })
      .where(eq(creditPolicies.status, "proposed"));
    currentGroup = "POST /User/newLoan/:kind";
    await fuzzForm({
      route: "POST /User/newLoan/:kind",
      runs: 40,
      who: [as("kyc"), as("fresh"), as("staff"), anonymous],
      prepare: () => ({ path: "/User/newLoan/salaryAdvance", base: {} }),
      choices: { intent: ["", "next", "cancel"] },
    });
  }, 90_000);

  it("POST /admin/presence (device reload)", async () => {
    currentGroup = "POST /admin/presence";
    await fuzzForm({
      route: "POST /admin/presence",
      runs: 100,
      who: [as("staff"), as("admin"), as("qs"), anonymous],
      prepare: () => ({ path: "/admin/presence", base: { userId: people.qs.userId } }),
      choices: { userId: [people.fresh.userId, people.staff.userId, "00000000-0000-0000-0000-000000000000", "not-a-uuid"] },
    });
  }, 60_000);

  it("POST /admin/applications/:ref (take, checklist, ask, approve, reject)", async () => {
    currentGroup = "POST /admin/applications/:ref";
    const signed = await signedApplication(app, "9799999001");
    await fuzzForm({
      route: "POST /admin/applications/:ref",
      runs: 150,
      who: [as("admin"), as("staff"), as("qs"), anonymous],
      prepare: () => ({
        path: `/admin/applications/${signed.ref}`,
        base: {
          intent: "ask",
          message: "Please upload your PAN card again.",
          documentKind: "pan_card",
          reason: "policy",
          note: "Seen enough to decide.",
          items: "identity",
          deviationReason: "Income is well supported by six months of statements.",
        },
      }),
      choices: {
        intent: [
          "take",
          "take_over",
          "checks",
          "checklist",
          "ask",
          "approve",
          "confirm_deviation",
          "reject",
          "disburse",
          "payout_check",
          "nothing",
        ],
        payout: ["", "00000000-0000-4000-8000-000000000000", "not-a-uuid"],
        documentKind: ["", "selfie", "bank_statement", "passport"],
        reason: ["credit_history", "documents", "none"],
        items: ["identity", "bureau", "everything"],
      },
    });
  }, 120_000);
});

describe("fuzzing the quick start with a borrower who has reached each step", () => {
  // From the last step to the first: an answer changed at an earlier step sends the borrower back to the offer, not before it.
  const BASES: Record<number, Record<string, string>> = Object.fromEntries(QS_ANSWERS.map((a, i) => [i, { intent: "next", ...a }]));
  it.each([6, 5, 4, 3, 2, 1, 0])(
    "POST /quickStart/Step%i",
    async (step) => {
      const route = `POST /quickStart/Step${step}`;
      currentGroup = route;
      await fuzzForm({
        route,
        runs: 85,
        who: [as("qs"), as("fresh"), as("staff")],
        prepare: () => ({ path: `/quickStart/Step${step}`, base: step === 1 ? { ...BASES[1], pan: pans.qs } : { ...BASES[step] } }),
        choices: {
          intent: ["next", "back", ""],
          product: ["emi", "salary_advance"],
          employmentType: ["salaried", "self_employed"],
          pincode: ["110001", "700016", "999999"],
        },
      });
    },
    60_000,
  );
});

describe("fuzzing the profile sections with a borrower whose profile is complete", () => {
  const sections: Array<[string, () => Record<string, string>, () => Record<string, readonly string[]>]> = [
    [
      "Profile",
      () => ({
        fullName: "Neha Gupta",
        dateOfBirth: "1992-06-15",
        gender: "female",
        email: "neha@example.com",
        pan: pans.kyc,
        aadhaar: "234123412346",
        maritalStatus: "married",
        consentKyc: "on",
        consentCommunications: "on",
      }),
      () => ({
        gender: ["female", "male", "other"],
        maritalStatus: ["single", "married", "divorced", "widowed"],
        pan: ["", pans.qs],
        aadhaar: ["", "2341 2341 2346"],
      }),
    ],
    [
      "Address",
      () => ({
        currentLine1: "4, Park Street",
        currentLine2: "Near the museum",
        currentPincode: "700016",
        residenceType: "rented",
        yearsAtAddress: "3",
        permanentSame: "on",
        permanentLine1: "12 MG Road",
        permanentLine2: "",
        permanentPincode: "560001",
      }),
      () => ({ residenceType: ["owned", "rented", "family", "company"], permanentSame: ["on", "", "off", "yes"] }),
    ],
    [
      "Employment",
      () => ({
        employmentType: "salaried",
        employerName: "Acme Ltd",
        designation: "Analyst",
        netMonthlyIncome: "60000",
        existingEmis: "0",
        salaryDay: "28",
        monthsWithEmployer: "40",
      }),
      () => ({ employmentType: ["salaried", "self_employed"], salaryDay: ["", "1", "31", "32"] }),
    ],
    [
      "Bank",
      () => ({
        holderName: "Neha Gupta",
        accountNumber: "50100012345678",
        accountNumber_confirm: "50100012345678",
        ifsc: "HDFC0000001",
        accountType: "salary",
      }),
      () => ({ accountType: ["savings", "current", "salary"], ifsc: ["SBIN0000001", "hdfc0000001", "ABCD0123456"] }),
    ],
    [
      "Reference",
      () => ({
        ref1Name: "Amit Gupta",
        ref1Relation: "spouse",
        ref1Mobile: "9123456781",
        ref2Name: "Sara Das",
        ref2Relation: "friend",
        ref2Mobile: "9223456782",
      }),
      () => ({
        ref1Relation: ["parent", "spouse", "sibling", "relative", "friend", "colleague"],
        ref2Mobile: ["9123456781", people.kyc.mobile],
      }),
    ],
  ];
  it.each(sections)(
    "POST /User/Profile/components/%s",
    async (name, base, choices) => {
      const route = `POST /User/Profile/components/${name}`;
      currentGroup = route;
      await fuzzForm({
        route,
        runs: 100,
        who: [as("kyc"), as("fresh"), as("staff")],
        prepare: () => ({ path: `/User/Profile/components/${name}`, base: base() }),
        choices,
      });
    },
    60_000,
  );
});

// ---- uploads ----

const jpeg = () => new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, ...new Array(200).fill(7), 0xff, 0xd9]);
const png = () =>
  new Uint8Array([
    0x89,
    0x50,
    0x4e,
    0x47,
    0x0d,
    0x0a,
    0x1a,
    0x0a,
    ...new Array(100).fill(1),
    0,
    0,
    0,
    0,
    ...new TextEncoder().encode("IEND"),
    0xae,
    0x42,
    0x60,
    0x82,
  ]);
const pdf = () => new TextEncoder().encode("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n");
const FILES = ["jpeg", "png", "pdf", "elf", "empty", "random", "truncated-jpeg", "too-large", "none", "two-files"] as const;
const UPLOAD_TRANSPORTS = [
  [10, "multipart"],
  [1, "multipart-no-boundary"],
  [1, "multipart-bad-boundary"],
  [2, "multipart-truncated"],
  [2, "urlencoded-delete"],
  [1, "json"],
  [1, "empty"],
  [1, "binary-as-urlencoded"],
  [1, "oversized"],
] as const;
const uploadPlanArb = fc.record({
  transport: fc.oneof(...UPLOAD_TRANSPORTS.map(([weight, name]) => ({ weight, arbitrary: fc.constant(name) }))),
  kind: fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...Object.keys(DOCUMENT_KINDS)) }, { weight: 2, arbitrary: hostileText }),
  dropKind: fc.nat({ max: 9 }),
  file: fc.oneof(
    { weight: 12, arbitrary: fc.constantFrom("jpeg" as const, "png" as const, "pdf" as const) },
    { weight: 8, arbitrary: fc.constantFrom(...FILES) },
  ),
  name: fc.oneof(
    { weight: 6, arbitrary: fc.constant("(matching)") },
    { weight: 2, arbitrary: fc.constantFrom("pan.jpg", "scan.png", "statement.pdf", "photo.jpeg", "x.pdf", "") },
    { weight: 3, arbitrary: hostileText },
    { weight: 2, arbitrary: fc.tuple(hostileText, fc.constantFrom(".jpg", ".png", ".pdf", ".exe", ".JPG", "")).map(([a, b]) => a + b) },
  ),
  starName: fc.nat({ max: 4 }),
  partType: fc.constantFrom("image/jpeg", "application/pdf", "text/html", "application/octet-stream", "", "image/jpeg; x=\u0001"),
  extras: fc.oneof(
    { weight: 3, arbitrary: fc.constant([] as Array<[string, string]>) },
    { weight: 1, arbitrary: fc.array(fc.tuple(hostileKey, hostileText), { maxLength: 12 }) },
  ),
  bytes: fc.uint8Array({ maxLength: 3000 }),
  cut: fc.nat(),
  who: fc.nat({ max: 9 }),
  deleteId: fc.oneof(fc.constant("real"), fc.uuid().map(String), hostileText),
});
type UploadPlan = typeof uploadPlanArb extends fc.Arbitrary<infer T> ? T : never;

function fileBytes(plan: UploadPlan, max: number): Uint8Array {
  switch (plan.file) {
    case "jpeg":
    case "two-files":
      return jpeg();
    case "png":
      return png();
    case "pdf":
      return pdf();
    case "elf":
      return new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, ...new Array(100).fill(0)]);
    case "empty":
    case "none":
      return new Uint8Array(0);
    case "random":
      return plan.bytes;
    case "truncated-jpeg":
      return jpeg().subarray(0, 100);
    case "too-large": {
      const big = new Uint8Array(max + 1).fill(7);
      big.set([0xff, 0xd8, 0xff, 0xe0]);
      big.set([0xff, 0xd9], max - 1);
      return big;
    }
  }
}

/** A multipart body built by hand: the file name and part headers exactly as generated (quotes, line breaks and all). */
function uploadBody(plan: UploadPlan, max: number, boundary: string): Buffer {
  const parts: Buffer[] = [];
  const addField = (name: string, value: string) =>
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  if (plan.dropKind > 0) addField("kind", plan.kind);
  for (const [n, v] of plan.extras) addField(n.replaceAll('"', "%22"), v);
  const files = plan.file === "none" ? 0 : plan.file === "two-files" ? 2 : 1;
  const extension: Record<string, string> = { png: "png", pdf: "pdf", elf: "exe", random: "bin" };
  const name = plan.name === "(matching)" ? `scan-1.${extension[plan.file] ?? "jpg"}` : plan.name;
  for (let i = 0; i < files; i++) {
    const disposition = plan.starName === 0 ? `filename*=UTF-8''${encodeURIComponent(name.toWellFormed())}` : `filename="${name}"`;
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; ${disposition}\r\n${plan.partType ? `Content-Type: ${plan.partType}\r\n` : ""}\r\n`,
      ),
      Buffer.from(fileBytes(plan, max)),
      Buffer.from("\r\n"),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(parts);
}

async function fuzzUploads(route: string, path: string, max: number, runs: number) {
  const seed = seedOf(route);
  const who = [as("kyc"), as("fresh"), as("staff")] as const;
  await fc.assert(
    fc.asyncProperty(uploadPlanArb, async (plan) => {
      const boundary = "----fuzzUpload7MA4YWxkTrZu0gW";
      const cookie = pickWho(who, plan.who).cookie();
      if (plan.transport === "urlencoded-delete") {
        const [doc] = await app.services.db
          .select({ id: borrowerDocuments.id })
          .from(borrowerDocuments)
          .where(eq(borrowerDocuments.userId, people.kyc.userId));
        const id = plan.deleteId === "real" ? (doc?.id ?? "") : plan.deleteId;
        const body = new URLSearchParams({ intent: plan.dropKind < 2 ? plan.kind : "delete", id }).toString();
        await fire({
          route,
          path,
          cookie,
          body,
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
          encoding: plan.transport,
          preview: previewText(body),
          size: body.length,
        });
        return;
      }
      const whole = uploadBody(plan, max, boundary);
      const multipart = `multipart/form-data; boundary=${boundary}`;
      const [body, contentType]: [Uint8Array | string, string] =
        plan.transport === "multipart"
          ? [whole, multipart]
          : plan.transport === "multipart-no-boundary"
            ? [whole, "multipart/form-data"]
            : plan.transport === "multipart-bad-boundary"
              ? [whole, "multipart/form-data; boundary=somethingElse"]
              : plan.transport === "multipart-truncated"
                ? [whole.subarray(0, 1 + (plan.cut % Math.max(1, whole.length - 1))), multipart]
                : plan.transport === "json"
                  ? [JSON.stringify({ kind: plan.kind, file: plan.name }), "application/json"]
                  : plan.transport === "empty"
                    ? ["", multipart]
                    : plan.transport === "binary-as-urlencoded"
                      ? [plan.bytes, "application/x-www-form-urlencoded"]
                      : [new Uint8Array(max + 128 * 1024).fill(65), multipart];
      await fire({
        route,
        path,
        cookie,
        body: typeof body === "string" ? body : new Uint8Array(body),
        headers: { "Content-Type": contentType },
        encoding: `${plan.transport}, file ${plan.file}`,
        preview: typeof body === "string" ? previewText(body) : previewBytes(body),
        size: typeof body === "string" ? Buffer.byteLength(body) : body.length,
      });
    }),
    { seed, numRuns: runs },
  );
  expect(serverErrors(), `5xx answers (seed ${seed})`).toEqual([]);
}

describe("fuzzing the uploads", () => {
  it("POST /User/Profile/components/Documents (multipart uploads, deletes)", async () => {
    currentGroup = "POST /User/Profile/components/Documents";
    await fuzzUploads("POST /User/Profile/components/Documents", "/User/Profile/components/Documents", MAX_DOCUMENT_BYTES, 120);
  }, 60_000);

  it("POST /User/Profile/components/Selfie", async () => {
    currentGroup = "POST /User/Profile/components/Selfie";
    await fuzzUploads("POST /User/Profile/components/Selfie", "/User/Profile/components/Selfie", MAX_SELFIE_BYTES, 70);
  }, 60_000);
});

describe("fuzzing the new-loan steps with an application at each step", () => {
  const cases: Array<[Kind, "Step0" | "Step1" | "Step5" | "Step6" | "Step7"]> = [];
  for (const kind of ["emi", "salary_advance"] as const)
    for (const step of ["Step0", "Step1", "Step5", "Step6", "Step7"] as const) cases.push([kind, step]);
  it.each(cases)(
    "POST /User/newLoan/%s/{reference}/%s",
    async (kind, step) => {
      const route = `POST /User/newLoan/${SEGMENT[kind]}/:id/${step}`;
      currentGroup = route;
      const bases = {
        Step0: () => ({ ...TERMS[kind] }),
        Step1: () => ({ ...DETAILS }),
        Step5: () => ({ intent: "" }),
        Step6: (s: { documentId: string | null; code: string }) => ({ documentId: s.documentId ?? "", accept: "yes", code: s.code }),
        Step7: () => ({ intent: "" }),
      };
      await fuzzForm({
        route,
        runs: step === "Step6" ? 40 : step === "Step0" || step === "Step1" ? 70 : 35,
        who: [as("loan"), as("kyc"), as("staff")],
        prepare: async () => {
          const state = await ensureLoanStep(kind, step);
          return { path: loanPath(kind, state.reference, step), base: bases[step](state) };
        },
        choices: {
          intent:
            step === "Step6" ? ["send", "sign", ""] : step === "Step0" ? ["", "cancel", "next", "credit_check"] : ["", "cancel", "next"],
          consentBureau: ["on", "yes", "", "no"],
          purpose: [
            "home_improvement",
            "medical",
            "education",
            "wedding",
            "travel",
            "consumer_durable",
            "debt_consolidation",
            "business",
            "household",
            "other",
          ],
          tenure: ["3", "36", "37", "2"],
          accept: ["yes", "on", "no"],
        },
      });
    },
    90_000,
  );
});

describe("fuzzing the session APIs", () => {
  it.each(["/auth/sign-out", "/api/session/clear", "/api/session/renew"])(
    "POST %s",
    async (path) => {
      const route = `POST ${path}`;
      currentGroup = route;
      await fuzzForm({
        route,
        runs: 25,
        who: [{ label: "its own session", cookie: () => undefined }, anonymous, as("staff")],
        prepare: async () => ({ path, base: { redirectTo: "/" }, cookie: await throwawaySession() }),
      });
    },
    30_000,
  );
});

describe("fuzzing the payout webhook", () => {
  it("POST /api/webhooks/:provider (unsigned, forged, any body)", async () => {
    const route = "POST /api/webhooks/:provider";
    currentGroup = route;
    let n = 0;
    await fuzzForm({
      route,
      runs: 40,
      who: [anonymous, as("staff")],
      prepare: () => ({
        path: ["/api/webhooks/local", "/api/webhooks/razorpayx", "/api/webhooks/x"][n++ % 3] as string,
        base: { event: "payout.processed", payload: '{"payout":{"entity":{"id":"pout_1","status":"processed"}}}' },
      }),
    });
  }, 60_000);
});

describe("fuzzing the routes without an action", () => {
  const PATHS = [
    "/",
    "/About",
    "/EmiCalculator",
    "/EmiCalculator/schedule.csv",
    "/api/emi",
    "/api/pincode/560001",
    "/api/ifsc/HDFC0000001",
    "/api/events",
    "/manifest.webmanifest",
    "/homeComponents/top",
    "/Rate-terms",
    "/User/Dashboard",
    "/User/Profile",
    "/quickStart",
    "/quickStart/components",
    "/admin",
    "/admin/presence/events",
    "/auth/facebook",
    "/auth/facebook/callback",
    "/Eagreement/aaaaaaaaaaaaaaaaaaaaaaaaaa",
    "/success/aaaaaaaaaaaaaaaaaaaaaaaaaa",
    "/no/such/page",
  ];
  it("POST, PUT, PATCH, DELETE to pages and APIs that only answer GET", async () => {
    const route = "POST (no action)";
    currentGroup = route;
    let n = 0;
    await fuzzForm({
      route,
      runs: 100,
      who: [as("qs"), anonymous, as("staff")],
      prepare: () => ({ path: PATHS[n++ % PATHS.length] as string, base: { intent: "next" } }),
    });
  }, 60_000);
});

describe("fuzzing the GET APIs and pages that read the address", () => {
  interface GetTarget {
    route: string;
    who: readonly Who[];
    /** `$`-named fields go into the path, the others into the query. */
    base: () => Record<string, string>;
    path: (p: Record<string, string>) => string;
    choices?: Record<string, readonly string[]>;
    stream?: boolean;
  }
  const loanRef = () => applicationsOf(people.loan.userId, "emi");
  let emiRef = "aaaaaaaaaaaaaaaaaaaaaaaaaa";
  let docId = "00000000-0000-0000-0000-000000000000";
  const calc = () => ({ amount: "100000", rate: "14", months: "12", fee: "2000" });
  const TARGETS: GetTarget[] = [
    { route: "GET /api/emi", who: [anonymous], base: calc, path: () => "/api/emi" },
    { route: "GET /EmiCalculator/schedule.csv", who: [anonymous], base: calc, path: () => "/EmiCalculator/schedule.csv" },
    { route: "GET /EmiCalculator", who: [anonymous], base: calc, path: () => "/EmiCalculator" },
    { route: "GET /api/pincode/:pin", who: [anonymous], base: () => ({ $pin: "560001" }), path: (p) => `/api/pincode/${p.$pin}` },
    { route: "GET /api/ifsc/:code", who: [anonymous], base: () => ({ $code: "HDFC0000001" }), path: (p) => `/api/ifsc/${p.$code}` },
    {
      route: "GET /quickStart/Otp?redirectTo",
      who: [anonymous, as("qs")],
      base: () => ({ redirectTo: "/User/Dashboard" }),
      path: () => "/quickStart/Otp",
    },
    {
      route: "GET /admin/login?redirectTo",
      who: [anonymous, as("staff")],
      base: () => ({ redirectTo: "/admin/presence" }),
      path: () => "/admin/login",
    },
    {
      route: "GET /homeComponents/:section",
      who: [anonymous],
      base: () => ({ $section: "top" }),
      path: (p) => `/homeComponents/${p.$section}`,
      choices: { $section: ["component", "calculator", "faq"] },
    },
    {
      route: "GET /:state/:id",
      who: [as("loan"), anonymous],
      base: () => ({ $state: "success", $id: emiRef }),
      path: (p) => `/${p.$state}/${p.$id}`,
      choices: { $state: ["success", "failure", "pending", "cancelled", "Success"] },
    },
    { route: "GET /Eagreement/:id", who: [anonymous], base: () => ({ $id: emiRef }), path: (p) => `/Eagreement/${p.$id}` },
    {
      route: "GET /Eagreement/:id/pdf",
      who: [anonymous],
      base: () => ({ $id: emiRef, download: "1" }),
      path: (p) => `/Eagreement/${p.$id}/pdf`,
    },
    {
      route: "GET /User/newLoan/Emi/:id/Step5/pdfDisplay",
      who: [anonymous, as("loan")],
      base: () => ({ $id: emiRef, expires: "1795000000", signature: "0".repeat(64) }),
      path: (p) => `/User/newLoan/Emi/${p.$id}/Step5/pdfDisplay`,
    },
    {
      route: "GET /User/newLoan/:kind/:id/:step",
      who: [as("loan"), as("kyc")],
      base: () => ({ $kind: "Emi", $id: emiRef, $step: "Step7" }),
      path: (p) => `/User/newLoan/${p.$kind}/${p.$id}/${p.$step}`,
      choices: { $kind: ["Emi", "salaryAdvance", "EMI", "emi"], $step: ["Step0", "Step1", "Step7", "step7", "Step2"] },
    },
    { route: "GET /quickStart/Step5?tenure", who: [as("qs")], base: () => ({ tenure: "12" }), path: () => "/quickStart/Step5" },
    {
      route: "GET /User/Profile/documents/:id",
      who: [as("kyc"), as("loan")],
      base: () => ({ $id: docId }),
      path: (p) => `/User/Profile/documents/${p.$id}`,
    },
    {
      route: "GET /admin/documents/:id",
      who: [as("staff"), as("admin"), as("kyc")],
      base: () => ({ $id: docId }),
      path: (p) => `/admin/documents/${p.$id}`,
    },
    { route: "GET /api/events?device", who: [as("fresh")], base: () => ({ device: "web-fuzz" }), path: () => "/api/events", stream: true },
    {
      route: "GET /auth/facebook/callback",
      who: [anonymous],
      base: () => ({ code: "abc", state: "xyz" }),
      path: () => "/auth/facebook/callback",
    },
    { route: "GET /ClearCache", who: [anonymous], base: () => ({ cleared: "1" }), path: () => "/ClearCache" },
    {
      route: "GET /:unknown (not found)",
      who: [anonymous, as("qs")],
      base: () => ({ $a: "nothing-here", q: "1" }),
      path: (p) => `/${p.$a}/x/y`,
    },
  ];
  it.each(TARGETS.map((t) => [t.route, t] as const))(
    "%s",
    async (route, target) => {
      currentGroup = route;
      emiRef = (await loanRef())[0]?.reference ?? emiRef;
      const [doc] = await app.services.db
        .select({ id: borrowerDocuments.id })
        .from(borrowerDocuments)
        .where(eq(borrowerDocuments.userId, people.kyc.userId));
      docId = doc?.id ?? docId;
      const seed = seedOf(route);
      await fc.assert(
        fc.asyncProperty(planArb, async (plan) => {
          const entries = applyPlan(target.base(), target.choices ?? {}, plan);
          const params: Record<string, string> = {};
          const query: Array<[string, string]> = [];
          for (const [n, v] of entries) {
            if (n.startsWith("$") && !(n in params))
              params[n] =
                plan.encoding === "bad-escapes" ? text(v) + (plan.badEscapes[0] ?? "") : encodeURIComponent(text(v).toWellFormed());
            else if (!n.startsWith("$")) query.push([n, text(v)]);
          }
          for (const key of Object.keys(target.base())) if (key.startsWith("$") && !(key in params)) params[key] = "";
          let search = new URLSearchParams(query).toString();
          if (plan.encoding === "bad-escapes") search += `&${plan.badEscapes.join("&")}`;
          const path = `${target.path(params)}${plan.dataSuffix ? ".data" : ""}${search ? `?${search}` : ""}`;
          await fire({
            route,
            path,
            method: "GET",
            cookie: pickWho(target.who, plan.who).cookie(),
            encoding: "query",
            preview: previewText(path),
            stream: target.stream,
          });
        }),
        // Always tried too: every path parameter left empty.
        {
          seed,
          numRuns: target.stream ? 20 : 45,
          examples: [[{ ...EMPTY_PLAN, ops: [0, 1, 2].map((i) => ({ kind: "replace" as const, field: i, value: "" })) }]],
        },
      );
      expect(serverErrors(), `5xx answers (seed ${seed})`).toEqual([]);
    },
    60_000,
  );
});

describe("fuzzing the cookies", () => {
  const cookieValue = fc.oneof(
    fc.string({ unit: "binary-ascii", maxLength: 60 }).map((s) => s.replace(/[^ -~]/g, "")),
    fc.constantFrom(
      "",
      "x",
      "undefined",
      "null",
      "eyJ4IjoxfQ%3D%3D.c2ln",
      "eyJtb2JpbGUiOiJcdTAwMDAifQ.AAAA",
      "%",
      "%zz",
      "a".repeat(5000),
      "e30=.",
      "InRva2VuIg==.x",
    ),
    fc.base64String({ maxLength: 80 }).map((s) => `${s}.${s.slice(0, 10)}`),
  );
  const TARGETS = [
    ["GET", "/User/Dashboard"],
    ["GET", "/admin/presence"],
    ["GET", "/quickStart/Otp"],
    ["GET", "/"],
    ["POST", "/quickStart/Otp"],
    ["POST", "/admin/login"],
    ["POST", "/auth/sign-out"],
  ] as const;
  it("any Cookie header on the pages that read cookies", async () => {
    const route = "Cookie header";
    currentGroup = route;
    const seed = seedOf(route);
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: TARGETS.length - 1 }),
        fc.array(fc.tuple(fc.constantFrom("token", "otp_pending", "staff_pending", "__flash", "fb_oauth", "x"), cookieValue), {
          minLength: 1,
          maxLength: 4,
        }),
        async (t, cookies) => {
          const [method, path] = TARGETS[t] ?? TARGETS[0];
          const cookie = cookies.map(([n, v]) => `${n}=${v}`).join("; ");
          await fire({
            route: `${route}: ${method} ${path}`,
            path,
            method,
            cookie,
            ...(method === "POST" ? form({ intent: path === "/admin/login" ? "totp" : "verify", code: "123456", otp: "123456" }) : {}),
            encoding: "cookie",
            preview: previewText(`Cookie: ${cookie}`),
          });
        },
      ),
      { seed, numRuns: 100 },
    );
    expect(serverErrors(), `5xx answers (seed ${seed})`).toEqual([]);
  }, 60_000);
});

// ---- cross-origin ----

/** Everything stored about the victim (and the counts of the shared tables), to compare before and after. */
async function victimSnapshot() {
  const db = app.services.db;
  const id = people.victim.userId;
  const of = async <T>(rows: Promise<T[]>) => JSON.stringify(await rows);
  return {
    users: await of(db.select().from(users).where(eq(users.id, id))),
    sessions: await of(db.select({ id: sessions.id, endedAt: sessions.endedAt }).from(sessions).where(eq(sessions.userId, id))),
    profile: await of(db.select().from(borrowerProfiles).where(eq(borrowerProfiles.userId, id))),
    address: await of(db.select().from(borrowerAddresses).where(eq(borrowerAddresses.userId, id))),
    employment: await of(db.select().from(borrowerEmployment).where(eq(borrowerEmployment.userId, id))),
    consents: await of(db.select().from(consents).where(eq(consents.userId, id))),
    quickStart: await of(db.select().from(quickStarts).where(eq(quickStarts.userId, id))),
    applications: await of(db.select().from(loanApplications).where(eq(loanApplications.userId, id))),
    tickets: (await db.select({ id: tickets.id }).from(tickets)).length,
    audit: (await db.select({ id: auditLog.id }).from(auditLog)).length,
    codesSent: (await db.select({ id: verificationSends.id }).from(verificationSends)).length,
  };
}

describe("cross-origin requests", () => {
  it("are refused with 403 and change nothing", async () => {
    const route = "cross-origin POST";
    currentGroup = route;
    const victim = people.victim;
    await setupPost(route, "/User/newLoan/Emi", victim.cookie, {});
    const [draft] = await applicationsOf(victim.userId, "emi");
    const requests: Array<[string, string | undefined, Record<string, string>]> = [
      [
        "/Contact-us",
        undefined,
        { name: "Neha Gupta", mobile: "9876543210", email: "neha@example.com", message: "Please call me back about my loan." },
      ],
      [
        "/User/Profile/components/Profile",
        victim.cookie,
        {
          fullName: "Evil Name",
          dateOfBirth: "1980-01-01",
          gender: "male",
          email: "evil@example.com",
          maritalStatus: "single",
          consentKyc: "on",
        },
      ],
      [
        "/User/Profile/components/Address",
        victim.cookie,
        { currentLine1: "1 Evil Street", currentPincode: "110001", residenceType: "rented", yearsAtAddress: "1", permanentSame: "on" },
      ],
      ["/quickStart/Step0", victim.cookie, { intent: "next", product: "salary_advance", amount: "5000" }],
      ["/User/newLoan/salaryAdvance", victim.cookie, {}],
      [loanPath("emi", draft?.reference ?? "", "Step0"), victim.cookie, { intent: "cancel" }],
      ["/quickStart/Otp", undefined, { intent: "send", mobile: victim.mobile }],
      ["/admin/presence", people.staff.cookie, { userId: victim.userId }],
      ["/auth/sign-out", victim.cookie, {}],
      ["/api/session/clear", victim.cookie, {}],
      ["/api/session/renew", victim.cookie, {}],
    ];
    const port = new URL(app.url).port;
    const origins = ["https://evil.example", "null", `https://localhost:${port}`];
    const before = await victimSnapshot();
    const wrong: string[] = [];
    for (const foreign of origins) {
      for (const [path, cookie, fields] of requests) {
        const res = await fire({
          route,
          path,
          cookie,
          ...form(fields),
          origin: foreign,
          encoding: "urlencoded",
          preview: previewText(new URLSearchParams(fields).toString()),
        });
        if (res?.status !== 403) wrong.push(`POST ${path} with Origin: ${foreign} → ${res?.status ?? "no response"} (expected 403)`);
      }
    }
    // No Origin at all, and a foreign Referer instead.
    for (const [path, cookie, fields] of requests.slice(0, 3)) {
      const res = await fire({
        route,
        path,
        cookie,
        ...form(fields),
        headers: { ...form(fields).headers, Referer: "https://evil.example/page" },
        origin: null,
      });
      if (res?.status !== 403)
        wrong.push(`POST ${path} without Origin, Referer https://evil.example/page → ${res?.status ?? "no response"} (expected 403)`);
    }
    const after = await victimSnapshot();
    const changed = Object.keys(before).filter(
      (k) => JSON.stringify(before[k as keyof typeof before]) !== JSON.stringify(after[k as keyof typeof after]),
    );
    const stillSignedIn = await fire({ route, path: "/User/Dashboard", method: "GET", cookie: victim.cookie, setup: true });
    expect(wrong, "cross-origin requests not refused with 403").toEqual([]);
    expect(changed, "what the cross-origin requests changed").toEqual([]);
    expect(stillSignedIn?.status, "the victim's session after the cross-origin requests").toBe(200);
    expect(serverErrors(), "5xx answers").toEqual([]);
  }, 30_000);
});

// ---- the stored rows ----

type Parsed =
  { success: true } | { success: false; error: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> } };
interface Violation {
  table: string;
  row: string;
  column: string;
  value: unknown;
  rule: string;
}
/** A C0 or C1 control character; a multi-line field (the contact message) may hold tab and line breaks. */
function hasControl(value: string, multiLine = false) {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c <= 0x1f || (c >= 0x7f && c <= 0x9f)) {
      if (multiLine && (c === 0x09 || c === 0x0a || c === 0x0d)) continue;
      return true;
    }
  }
  return false;
}
const MULTI_LINE = new Set(["ticket_messages.body"]);
const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const shown = (v: unknown) => {
  if (typeof v !== "string") return v instanceof Date ? v.toISOString() : (JSON.stringify(v) ?? String(v));
  return JSON.stringify(v.length > 120 ? `${v.slice(0, 120)}…(${v.length} chars)` : v);
};
const rupees = (paise: number) => (paise / 100).toFixed(2);

async function storedRowViolations(): Promise<Violation[]> {
  const db = app.services.db;
  const out: Violation[] = [];
  const bad = (table: string, row: string, column: string, value: unknown, rule: string) =>
    out.push({ table, row, column: snake(column), value, rule });
  /** The Zod issues of a form rebuilt from a row, each against the column it came from. */
  const issues = (table: string, row: string, result: Parsed, columnOf: Record<string, [string, unknown]>) => {
    if (result.success) return;
    for (const issue of result.error.issues) {
      const formField = String(issue.path[0] ?? "");
      const [column, value] = columnOf[formField] ?? [formField || "(row)", undefined];
      bad(table, row, column, value, `the form refuses it: ${issue.message}`);
    }
  };
  const same = (table: string, row: string, column: string, stored: unknown, formWould: unknown) => {
    if (stored !== formWould) bad(table, row, column, stored, `not what the form stores (it would store ${shown(formWould)})`);
  };
  const userRow = (id: string) => `user ${id.slice(0, 8)}`;

  // Control characters, in every text column and every string inside a JSON column of every table a request can write.
  const scan = (table: string, row: string, record: Record<string, unknown>) => {
    const walk = (value: unknown, column: string) => {
      if (typeof value === "string") {
        if (hasControl(value, MULTI_LINE.has(`${table}.${snake(column)}`))) bad(table, row, column, value, "holds a control character");
      } else if (Array.isArray(value)) value.forEach((v) => walk(v, column));
      else if (value && typeof value === "object" && !(value instanceof Date) && !(value instanceof Uint8Array)) {
        for (const [k, v] of Object.entries(value)) {
          if (hasControl(k)) bad(table, row, column, k, "a JSON key holds a control character");
          walk(v, column);
        }
      }
    };
    for (const [column, value] of Object.entries(record)) walk(value, column);
  };

  const allUsers = await db.select().from(users);
  const mobileOf = new Map(allUsers.map((u) => [u.id, u.mobile]));
  const productRows = await db.select().from(products);
  const product = (code: string) => productRows.find((p) => p.code === code);
  const ranges = Object.fromEntries(
    productRows.map((p) => [p.code, { minPaise: p.minAmountPaise, maxPaise: p.maxAmountPaise, stepPaise: p.amountStepPaise }]),
  ) as Parameters<typeof loanChoiceSchema>[0];
  const emi = product("emi");

  // users
  for (const u of allUsers) {
    const row = userRow(u.id);
    scan("users", row, u);
    if (!USER_ROLES.includes(u.role)) bad("users", row, "role", u.role, "not a role");
    if (u.mobile !== null && normalizeIndianMobile(u.mobile) !== u.mobile)
      bad("users", row, "mobile", u.mobile, "not a 10-digit Indian mobile number");
    if (u.email !== null && (!z.email().safeParse(u.email).success || u.email !== u.email.toLowerCase()))
      bad("users", row, "email", u.email, "not a lower-case e-mail address");
  }

  // sessions
  for (const s of await db.select().from(sessions)) {
    const row = `session of ${userRow(s.userId)}`;
    scan("sessions", row, s);
    issues("sessions", row, codeSchema.pick({ deviceId: true }).safeParse({ deviceId: s.deviceId }), {
      deviceId: ["deviceId", s.deviceId],
    });
  }

  // borrower_profiles: the Profile section's form (or the quick start's Step1 for a row it alone wrote)
  for (const p of await db.select().from(borrowerProfiles)) {
    const row = userRow(p.userId);
    scan("borrower_profiles", row, p);
    let pan = "";
    try {
      pan = decrypt(app.services.keyring, p.panEnc);
    } catch {
      bad("borrower_profiles", row, "panEnc", p.panEnc, "does not decrypt");
    }
    if (hasControl(pan)) bad("borrower_profiles", row, "panEnc", pan, "the PAN holds a control character");
    const columns = {
      fullName: ["fullName", p.fullName],
      dateOfBirth: ["dateOfBirth", p.dateOfBirth],
      gender: ["gender", p.gender],
      email: ["email", p.email],
      pan: ["panEnc (decrypted)", pan],
      maritalStatus: ["maritalStatus", p.maritalStatus],
    } satisfies Record<string, [string, unknown]>;
    const quickStartOnly = p.gender === null && p.email === null && p.maritalStatus === null && p.aadhaarLast4 === null;
    const result = quickStartOnly
      ? identitySchema({ today: TODAY, panSaved: false }).safeParse({ fullName: p.fullName, dateOfBirth: p.dateOfBirth, pan })
      : profileSchema({ today: TODAY, saved: { pan: false, aadhaar: true } }).safeParse({
          fullName: p.fullName,
          dateOfBirth: p.dateOfBirth,
          gender: p.gender ?? "",
          email: p.email ?? "",
          pan,
          maritalStatus: p.maritalStatus ?? "",
          consentKyc: "on",
        });
    issues("borrower_profiles", row, result, columns);
    if (result.success) {
      same("borrower_profiles", row, "fullName", p.fullName, result.data.fullName);
      same("borrower_profiles", row, "panEnc (decrypted)", pan, result.data.pan);
      const email = (result.data as { email?: string }).email;
      if (email !== undefined) same("borrower_profiles", row, "email", p.email, email.toLowerCase());
    }
    same("borrower_profiles", row, "panMasked", p.panMasked, maskPan(pan));
    if (!/^[0-9a-f]{64}$/.test(p.panHmac)) bad("borrower_profiles", row, "panHmac", p.panHmac, "not a keyed hash");
    if (p.aadhaarLast4 !== null && !/^\d{4}$/.test(p.aadhaarLast4))
      bad("borrower_profiles", row, "aadhaarLast4", p.aadhaarLast4, "not 4 digits");
  }

  // consents
  // credit_policies: every version and proposal reads back through the administrators' form as it was stored
  for (const c of await db.select().from(creditPolicies)) {
    const row = `policy ${c.id}`;
    const r = policyProposalSchema.safeParse({ ...policyFormValues({ ...DEFAULT_POLICY_RULES, ...c.rules }), reason: c.reason });
    if (!r.success)
      bad(
        "credit_policies",
        row,
        r.error.issues[0]?.path.join(".") ?? "rules",
        c.rules,
        `the form refuses it: ${r.error.issues[0]?.message}`,
      );
    else if (JSON.stringify(Object.entries(r.data.rules).sort()) !== JSON.stringify(Object.entries(c.rules).sort()))
      bad("credit_policies", row, "rules", c.rules, "not what the form stores");
  }

  for (const c of await db.select().from(consents)) {
    const row = userRow(c.userId);
    scan("consents", row, c);
    if (!["kyc", "communications", "bureau_enquiry"].includes(c.purpose))
      bad("consents", row, "purpose", c.purpose, "not a consent purpose");
    // A bureau enquiry is logged only as given (it is asked for each pull, never withdrawn by a form).
    if (c.purpose === "bureau_enquiry" && !c.granted) bad("consents", row, "granted", c.granted, "a bureau enquiry logged as refused");
  }

  // borrower_addresses: each column against the Address section's field (the quick start's Step2 writes the PIN code alone)
  const a$ = addressSchema.shape;
  const checkField = (table: string, row: string, column: string, schema: z.ZodType, value: unknown, stored: unknown = value) => {
    const r = schema.safeParse(value);
    if (!r.success) bad(table, row, column, stored, `the form refuses it: ${r.error.issues[0]?.message}`);
    else if (r.data !== stored) bad(table, row, column, stored, `not what the form stores (it would store ${shown(r.data)})`);
  };
  for (const a of await db.select().from(borrowerAddresses)) {
    const row = userRow(a.userId);
    const t = "borrower_addresses";
    scan(t, row, a);
    const place = (pin: string | null, prefix: "current" | "permanent") => {
      if (pin === null) return;
      const known = lookupPinCode(pin);
      checkField(t, row, `${prefix}Pincode`, pinCodeField, pin);
      if (!known) return bad(t, row, `${prefix}Pincode`, pin, "not a PIN code in the shipped data");
      same(t, row, `${prefix}City`, a[`${prefix}City`], known.city);
      same(t, row, `${prefix}District`, a[`${prefix}District`], known.district);
      same(t, row, `${prefix}State`, a[`${prefix}State`], known.state);
    };
    place(a.currentPincode, "current");
    place(a.permanentPincode, "permanent");
    if (a.currentLine1 !== null) checkField(t, row, "currentLine1", a$.currentLine1, a.currentLine1);
    if (a.currentLine2 !== null) checkField(t, row, "currentLine2", a$.currentLine2.unwrap().min(1), a.currentLine2);
    if (a.residenceType !== null) checkField(t, row, "residenceType", a$.residenceType, a.residenceType);
    if (a.yearsAtAddress !== null) checkField(t, row, "yearsAtAddress", a$.yearsAtAddress, String(a.yearsAtAddress), a.yearsAtAddress);
    if (a.permanentLine1 !== null) checkField(t, row, "permanentLine1", a$.currentLine1, a.permanentLine1);
    if (a.permanentLine2 !== null) checkField(t, row, "permanentLine2", a$.currentLine2.unwrap().min(1), a.permanentLine2);
    if (a.permanentSame === true) {
      for (const c of ["Line1", "Line2", "Pincode", "City", "District", "State"] as const)
        same(t, row, `permanent${c}`, a[`permanent${c}`], a[`current${c}`]);
    } else if (a.permanentSame === false) {
      if (a.permanentLine1 === null) bad(t, row, "permanentLine1", null, "a permanent address is needed when it is not the current one");
      if (a.permanentPincode === null)
        bad(t, row, "permanentPincode", null, "a permanent PIN code is needed when it is not the current one");
    }
  }

  // borrower_employment: the Employment section's form, or Step3 and Step4 of the quick start for a row they alone wrote
  for (const e of await db.select().from(borrowerEmployment)) {
    const row = userRow(e.userId);
    const t = "borrower_employment";
    scan(t, row, e);
    const columns = {
      employmentType: ["employmentType", e.employmentType],
      employerName: ["employerName", e.employerName],
      designation: ["designation", e.designation],
      netMonthlyIncome: ["netMonthlyIncomePaise", e.netMonthlyIncomePaise],
      existingEmis: ["existingEmiPaise", e.existingEmiPaise],
      salaryDay: ["salaryDay", e.salaryDay],
      monthsWithEmployer: ["monthsWithEmployer", e.monthsWithEmployer],
    } satisfies Record<string, [string, unknown]>;
    const fullSection = e.employerName !== null || e.designation !== null || e.monthsWithEmployer !== null;
    const formSalaryDay = e.salaryDay === null ? "" : String(e.salaryDay);
    if (fullSection) {
      const r = employmentSchema.safeParse({
        employmentType: e.employmentType,
        employerName: e.employerName ?? "",
        designation: e.designation ?? "",
        netMonthlyIncome: rupees(e.netMonthlyIncomePaise),
        existingEmis: e.existingEmiPaise === null ? "" : rupees(e.existingEmiPaise),
        salaryDay: formSalaryDay,
        monthsWithEmployer: e.monthsWithEmployer === null ? "" : String(e.monthsWithEmployer),
      });
      issues(t, row, r, columns);
      if (r.success) {
        same(t, row, "employerName", e.employerName, r.data.employerName);
        same(t, row, "designation", e.designation, r.data.designation);
        same(t, row, "netMonthlyIncomePaise", e.netMonthlyIncomePaise, r.data.netMonthlyIncome);
        same(t, row, "existingEmiPaise", e.existingEmiPaise, r.data.existingEmis);
        same(t, row, "salaryDay", e.salaryDay, r.data.salaryDay);
        same(t, row, "monthsWithEmployer", e.monthsWithEmployer, r.data.monthsWithEmployer);
      }
    } else {
      const r = incomeSchema.safeParse({
        employmentType: e.employmentType,
        netMonthlyIncome: rupees(e.netMonthlyIncomePaise),
        salaryDay: formSalaryDay,
      });
      issues(t, row, r, columns);
      if (r.success) {
        same(t, row, "netMonthlyIncomePaise", e.netMonthlyIncomePaise, r.data.netMonthlyIncome);
        same(t, row, "salaryDay", e.salaryDay, r.data.salaryDay);
      }
      if (e.existingEmiPaise !== null) {
        // Back (which needs no consent) keeps the EMIs exactly as the form does.
        const emis = existingEmisSchema.safeParse({ intent: "back", existingEmis: rupees(e.existingEmiPaise) });
        issues(t, row, emis, columns);
        if (emis.success) same(t, row, "existingEmiPaise", e.existingEmiPaise, emis.data.existingEmis);
      }
    }
    if (!employmentFields.employmentType.safeParse(e.employmentType).success)
      bad(t, row, "employmentType", e.employmentType, "not an employment type");
  }

  // borrower_references: both references through the Reference section's form, against the owner's own mobile
  const refsByUser = new Map<string, (typeof borrowerReferences.$inferSelect)[]>();
  for (const r of await db.select().from(borrowerReferences)) refsByUser.set(r.userId, [...(refsByUser.get(r.userId) ?? []), r]);
  for (const [userId, refs] of refsByUser) {
    const row = userRow(userId);
    const t = "borrower_references";
    for (const r of refs) scan(t, `${row} #${r.position}`, r);
    const one = refs.find((r) => r.position === 1);
    const two = refs.find((r) => r.position === 2);
    if (!one || !two || refs.length !== 2) {
      bad(
        t,
        row,
        "position",
        refs.map((r) => r.position),
        "two references, positions 1 and 2",
      );
      continue;
    }
    const columns = {
      ref1Name: ["name #1", one.name],
      ref1Relation: ["relation #1", one.relation],
      ref1Mobile: ["mobile #1", one.mobile],
      ref2Name: ["name #2", two.name],
      ref2Relation: ["relation #2", two.relation],
      ref2Mobile: ["mobile #2", two.mobile],
    } satisfies Record<string, [string, unknown]>;
    const result = referencesSchema(mobileOf.get(userId) ?? null).safeParse({
      ref1Name: one.name,
      ref1Relation: one.relation,
      ref1Mobile: one.mobile,
      ref2Name: two.name,
      ref2Relation: two.relation,
      ref2Mobile: two.mobile,
    });
    issues(t, row, result, columns);
    if (result.success) {
      same(t, row, "name #1", one.name, result.data.ref1Name);
      same(t, row, "name #2", two.name, result.data.ref2Name);
      same(t, row, "mobile #1", one.mobile, result.data.ref1Mobile);
      same(t, row, "mobile #2", two.mobile, result.data.ref2Mobile);
    }
  }

  // borrower_bank_accounts: the Bank section's form with the decrypted account number, and an IFSC that exists
  for (const b of await db.select().from(borrowerBankAccounts)) {
    const row = userRow(b.userId);
    const t = "borrower_bank_accounts";
    scan(t, row, b);
    let account = "";
    try {
      account = decrypt(app.services.keyring, b.accountNumberEnc);
    } catch {
      bad(t, row, "accountNumberEnc", b.accountNumberEnc, "does not decrypt");
    }
    const columns = {
      holderName: ["holderName", b.holderName],
      accountNumber: ["accountNumberEnc (decrypted)", account],
      accountNumber_confirm: ["accountNumberEnc (decrypted)", account],
      ifsc: ["ifsc", b.ifsc],
      accountType: ["accountType", b.accountType],
    } satisfies Record<string, [string, unknown]>;
    const result = bankSchema.safeParse({
      holderName: b.holderName,
      accountNumber: account,
      accountNumber_confirm: account,
      ifsc: b.ifsc,
      accountType: b.accountType,
    });
    issues(t, row, result, columns);
    if (result.success) {
      same(t, row, "holderName", b.holderName, result.data.holderName);
      same(t, row, "accountNumberEnc (decrypted)", account, result.data.accountNumber);
      same(t, row, "ifsc", b.ifsc, result.data.ifsc);
    }
    const bank = lookupIfsc(b.ifsc);
    if (!bank) bad(t, row, "ifsc", b.ifsc, "not an IFSC in the shipped list");
    else same(t, row, "bankName", b.bankName, bank.bankName);
    same(t, row, "accountMasked", b.accountMasked, maskAccount(account));
    if (b.nameMatchScore !== null && !(Number.isInteger(b.nameMatchScore) && b.nameMatchScore >= 0 && b.nameMatchScore <= 100))
      bad(t, row, "nameMatchScore", b.nameMatchScore, "not 0–100");
    if ((b.verifiedAt !== null) !== (b.nameMatchScore ?? 0) >= NAME_MATCH_THRESHOLD)
      bad(t, row, "verifiedAt", b.verifiedAt, `verified exactly when the name match is ${NAME_MATCH_THRESHOLD} or more`);
  }

  // borrower_documents: a known kind, and stored bytes that the upload's own check accepts
  const docKinds = new Set<string>();
  for (const d of await db.select().from(borrowerDocuments)) {
    const row = `${userRow(d.userId)} ${d.kind}`;
    const t = "borrower_documents";
    scan(t, row, d);
    if (!(d.kind in DOCUMENT_KINDS)) bad(t, row, "kind", d.kind, "not a document kind");
    if (docKinds.has(`${d.userId}:${d.kind}`)) bad(t, row, "kind", d.kind, "a second document of the same kind");
    docKinds.add(`${d.userId}:${d.kind}`);
    const allowed: SniffedType[] = d.kind === "selfie" ? ["image/jpeg"] : ["image/jpeg", "image/png", "application/pdf"];
    const max = d.kind === "selfie" ? MAX_SELFIE_BYTES : MAX_DOCUMENT_BYTES;
    if (!(allowed as string[]).includes(d.contentType)) bad(t, row, "contentType", d.contentType, `not one of ${allowed.join(", ")}`);
    if (!(d.sizeBytes > 0 && d.sizeBytes <= max)) bad(t, row, "sizeBytes", d.sizeBytes, `not 1 to ${max} bytes`);
    if (d.originalName.length > 200) bad(t, row, "originalName", d.originalName, "longer than 200 characters");
    if (!(await app.services.storage.exists(d.storageKey))) {
      bad(t, row, "storageKey", d.storageKey, "no such stored file");
      continue;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of app.services.storage.read(d.storageKey)) chunks.push(Buffer.from(chunk as Uint8Array));
    const bytes = new Uint8Array(Buffer.concat(chunks));
    same(t, row, "sizeBytes", d.sizeBytes, bytes.length);
    same(t, row, "sha256", d.sha256, sha256Bytes(bytes));
    const judged = judgeFile(
      { head: bytes.subarray(0, 16), tail: bytes.subarray(-1024), size: bytes.length, name: d.originalName },
      allowed,
    );
    if (!judged.ok) bad(t, row, "originalName / file", d.originalName, `the upload check refuses it: ${judged.message}`);
    else same(t, row, "contentType", d.contentType, judged.type);
  }

  // loan_applications: known kind and status, amounts and tenures within the product's limits, Step1's purpose rules
  const inProgress = new Set<string>();
  for (const l of await db.select().from(loanApplications)) {
    const row = `${userRow(l.userId)} ${l.reference}`;
    const t = "loan_applications";
    scan(t, row, l);
    if (!REFERENCE_PATTERN.test(l.reference)) bad(t, row, "reference", l.reference, "not a reference");
    const p = product(l.product);
    if (!p) bad(t, row, "product", l.product, "not a product");
    if (!(LOAN_STATUSES as readonly string[]).includes(l.status)) bad(t, row, "status", l.status, "not a status");
    if ((IN_PROGRESS as readonly string[]).includes(l.status)) {
      if (inProgress.has(`${l.userId}:${l.product}`)) bad(t, row, "status", l.status, "a second application of this product in progress");
      inProgress.add(`${l.userId}:${l.product}`);
    }
    if (p && l.amountPaise !== null) {
      const problem = amountProblem(l.amountPaise, {
        minPaise: p.minAmountPaise,
        maxPaise: p.maxAmountPaise,
        stepPaise: p.amountStepPaise,
      });
      if (problem) bad(t, row, "amountPaise", l.amountPaise, problem);
    }
    if (l.termsSavedAt !== null && l.amountPaise === null) bad(t, row, "amountPaise", null, "terms saved without an amount");
    if (l.product === "emi" && p) {
      if (l.termsSavedAt !== null && l.tenureMonths === null) bad(t, row, "tenureMonths", null, "terms saved without a tenure");
      if (l.tenureMonths !== null && !(l.tenureMonths >= p.minTenure && l.tenureMonths <= p.maxTenure))
        bad(t, row, "tenureMonths", l.tenureMonths, `not ${p.minTenure}–${p.maxTenure} months`);
    } else if (l.tenureMonths !== null) bad(t, row, "tenureMonths", l.tenureMonths, "a salary advance has no tenure in months");
    if (l.purpose !== null || l.purposeDetails !== null) {
      const r = detailsSchema.safeParse({ purpose: l.purpose ?? "", purposeDetails: l.purposeDetails ?? "", disbursalConsent: "yes" });
      issues(t, row, r, { purpose: ["purpose", l.purpose], purposeDetails: ["purposeDetails", l.purposeDetails] });
      if (r.success) same(t, row, "purposeDetails", l.purposeDetails, r.data.purposeDetails || null);
    }
  }

  // quick_starts: Step0's choice and the offer's amounts within the product's range, the EMI tenure within the product's
  for (const q of await db.select().from(quickStarts)) {
    const row = userRow(q.userId);
    const t = "quick_starts";
    scan(t, row, q);
    if (!(q.completedSteps >= 0 && q.completedSteps <= 7)) bad(t, row, "completedSteps", q.completedSteps, "not 0–7");
    if (q.product !== null && !product(q.product)) bad(t, row, "product", q.product, "not a product");
    if (q.amountPaise !== null) {
      const r = loanChoiceSchema(ranges).safeParse({ product: q.product ?? "", amount: rupees(q.amountPaise) });
      issues(t, row, r, { product: ["product", q.product], amount: ["amountPaise", q.amountPaise] });
      if (r.success) same(t, row, "amountPaise", q.amountPaise, r.data.amountPaise);
    }
    const range = q.product ? ranges[q.product as keyof typeof ranges] : undefined;
    if (q.offerAmountPaise !== null) {
      const problem = range ? amountProblem(q.offerAmountPaise, range) : "no product";
      if (problem) bad(t, row, "offerAmountPaise", q.offerAmountPaise, problem);
    }
    if (q.tenureMonths !== null && emi && !(q.tenureMonths >= emi.minTenure && q.tenureMonths <= emi.maxTenure))
      bad(t, row, "tenureMonths", q.tenureMonths, `not ${emi.minTenure}–${emi.maxTenure} months`);
  }

  // tickets from the contact form: the contact form's schema, and what it would store (its first message is the message)
  for (const t of await db.select().from(tickets)) {
    const row = `ticket ${t.reference}`;
    scan("tickets", row, t);
    if (t.source !== "contact") continue;
    const [first] = await db
      .select()
      .from(ticketMessages)
      .where(eq(ticketMessages.ticketId, t.id))
      .orderBy(ticketMessages.createdAt)
      .limit(1);
    const r = contactSchema.safeParse({ name: t.contactName, mobile: t.contactMobile, email: t.contactEmail, message: first?.body });
    issues("tickets", row, r, {
      name: ["contactName", t.contactName],
      mobile: ["contactMobile", t.contactMobile],
      email: ["contactEmail", t.contactEmail],
      message: ["ticket_messages.body", first?.body],
    });
    if (r.success) {
      same("tickets", row, "contactName", t.contactName, r.data.name);
      same("tickets", row, "contactMobile", t.contactMobile, r.data.mobile);
      same("ticket_messages", row, "body", first?.body, r.data.message);
    }
  }
  for (const m of await db.select().from(ticketMessages)) scan("ticket_messages", `message ${m.id}`, m);

  // one-time codes, sends, audit, funnel, presence, rate limits: the number a code went to, and no control characters anywhere
  for (const v of await db.select().from(verifications)) {
    const row = `${v.purpose} ${v.target.slice(0, 12)}`;
    scan("verifications", row, v);
    // Codes sent by SMS go to a mobile number; the staff enrolment link and the staff sign-in's pending step belong to a staff id.
    const staffTarget = v.purpose.startsWith("staff_");
    if (staffTarget ? !z.uuid().safeParse(v.target).success : normalizeIndianMobile(v.target) !== v.target)
      bad("verifications", row, "target", v.target, staffTarget ? "not a staff id" : "not a mobile number");
  }
  for (const s of await db.select().from(verificationSends)) {
    scan("verification_sends", `send ${s.id}`, s);
    if (normalizeIndianMobile(s.target) !== s.target) bad("verification_sends", `send ${s.id}`, "target", s.target, "not a mobile number");
  }
  for (const a of await db.select().from(auditLog)) scan("audit_log", `audit ${a.id} ${a.action}`, a);
  for (const f of await db.select().from(funnelEvents)) scan("funnel_events", `event ${f.id}`, f);
  for (const p of await db.select().from(presenceConnections)) {
    scan("presence_connections", `connection of ${userRow(p.userId)}`, p);
    if (p.deviceId.length > 100)
      bad("presence_connections", `connection of ${userRow(p.userId)}`, "deviceId", p.deviceId, "longer than 100 characters");
  }
  for (const r of await db.select().from(rateLimitCounters)) scan("rate_limit_counters", `${r.action}`, r);
  for (const d of await db
    .select({ id: loanDocuments.id, terms: loanDocuments.terms, validUntil: loanDocuments.validUntil })
    .from(loanDocuments))
    scan("loan_documents", `document ${d.id.slice(0, 8)}`, d);
  return out;
}

describe("what the fuzzing stored", () => {
  it("passes the validators of the forms that store it", async () => {
    currentGroup = "stored rows";
    const violations = await storedRowViolations();
    const lines = violations.map((v) => `${v.table}.${v.column} (${v.row}) = ${shown(v.value)}: ${v.rule}`);
    expect(lines, "stored values that the forms' own rules refuse").toEqual([]);
  }, 60_000);
});
