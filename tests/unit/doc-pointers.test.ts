import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Pointers from the code to the documents, held by this test: a comment that names a section of
// docs/product.md (or of another document of the repository) names a heading that is there.
//
// A pointer is the document's file name followed by the section's name in double quotes, the
// heading's text exactly (any level, # to ####):
//
//   docs/product.md "Loan servicing"
//   docs/product.md "Credit review and decision", "Credit policy"     several, after ", " or " and "
//
// A comma may stand between the file name and the first quote; a space must. A name may wrap onto the next
// comment line: line breaks with their comment leaders (//, /*, *, --) read as one space. Inside a
// string where quotes would need escaping (a test's title), the name may go unquoted after a comma
// and a capital letter: docs/product.md, Staff roles; the text must begin with a heading's text.
// Any other text after the file name (a colon, a parenthesis, nothing) names no section and is
// not checked; "§" with a number is refused: sections are named, never numbered. A link or path
// to a document with `#` and an anchor must be a heading's anchor (GitHub's slug of its text).
//
// docs/product.md stands alone: it neither links nor defers to a file outside the repository.

const root = path.resolve(import.meta.dirname, "../..");

const SCANNED = ["app", "server", "server.ts", "scripts", "tests", "docs", "db", "README.md"];
const TEXT_FILE = /\.(ts|tsx|js|mjs|cjs|md|sql)$/;

function filesUnder(rel: string): string[] {
  const full = path.join(root, rel);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return TEXT_FILE.test(rel) ? [rel] : [];
  return readdirSync(full).flatMap((name) => (name === "node_modules" ? [] : filesUnder(path.join(rel, name))));
}

const files = SCANNED.flatMap(filesUnder);

/** Every document a pointer may name, by file name: the markdown files of docs/ and README.md. */
const documents = new Map<string, string>();
for (const file of files.filter((f) => f.endsWith(".md") && (f.startsWith("docs/") || f === "README.md"))) {
  const name = path.basename(file);
  if (documents.has(name)) throw new Error(`two documents are called ${name}: a pointer could not tell them apart`);
  documents.set(name, file);
}

/** A markdown file's headings (outside fenced code blocks), # to ####, as written. */
function headingsOf(file: string): string[] {
  let fenced = false;
  const headings: string[] = [];
  for (const line of readFileSync(path.join(root, file), "utf8").split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const m = fenced ? null : /^#{1,4}\s+(.+?)\s*#*\s*$/.exec(line);
    if (m?.[1]) headings.push(m[1]);
  }
  return headings;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2… */
function anchorsOf(headings: readonly string[]): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const heading of headings) {
    const slug = heading
      .toLowerCase()
      .replace(/`/g, "")
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

const headings = new Map([...documents].map(([name, file]) => [name, headingsOf(file)]));

/** A file's text with its lines joined, each without its comment leader, and where each line starts. */
function joined(file: string) {
  const starts: number[] = [];
  let text = "";
  for (const line of readFileSync(path.join(root, file), "utf8").split("\n")) {
    if (text) text += " ";
    starts.push(text.length);
    text += line.replace(/^\s*(?:\/\/+|\/\*+|\*(?!\/)|--)?\s*/, "").trimEnd();
  }
  const lineAt = (index: number) => {
    let lo = 0;
    while (lo + 1 < starts.length && (starts[lo + 1] as number) <= index) lo++;
    return lo + 1;
  };
  return { text, lineAt };
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

interface Pointer {
  where: string;
  document: string;
  name: string;
  problem: string | null;
}

/** Every pointer of every scanned file to a section of a document, each with what is wrong with it (or null). */
function pointers(): Pointer[] {
  const found: Pointer[] = [];
  const mention = new RegExp(`(?<![\\w-])(${[...documents.keys()].map(escape).join("|")})`, "g");
  for (const file of files) {
    const { text, lineAt } = joined(file);
    for (const m of text.matchAll(mention)) {
      const document = m[1] as string;
      const known = headings.get(document) ?? [];
      const after = text.slice((m.index as number) + document.length);
      const where = `${file}:${lineAt(m.index as number)}`;
      const add = (name: string, problem: string | null) => found.push({ where, document, name, problem });

      const quoted = /^,?\s+"([^"]{1,100})"/.exec(after);
      if (quoted) {
        let rest = after;
        let next: RegExpExecArray | null = quoted;
        while (next) {
          const name = (next[1] as string).replace(/\s+/g, " ");
          add(name, known.includes(name) ? null : `no heading "${name}" in ${documents.get(document)}`);
          rest = rest.slice(next[0].length);
          next = /^(?:,\s*|\s+and\s+)"([^"]{1,100})"/.exec(rest);
        }
        continue;
      }
      const unquoted = /^,\s*(\p{Lu}[^"\n]*)/u.exec(after);
      if (unquoted) {
        const words = unquoted[1] as string;
        const heading = known
          .filter((h) => new RegExp(`^${escape(h)}(?![\\p{L}\\p{N}])`, "u").test(words))
          .sort((a, b) => b.length - a.length)[0];
        add(
          heading ?? words.slice(0, 40),
          heading ? null : `"${words.slice(0, 40)}…" begins with no heading of ${documents.get(document)}`,
        );
        continue;
      }
      if (/^,?\s*§/.test(after)) {
        add(after.slice(0, 20), `a section number: name the heading in quotes instead`);
        continue;
      }
      const anchor = /^#([^\s)\]"'`]+)/.exec(after);
      if (anchor) {
        const slug = anchor[1] as string;
        add(`#${slug}`, anchorsOf(known).has(slug) ? null : `no heading of ${documents.get(document)} has the anchor #${slug}`);
      }
    }
  }
  return found;
}

describe("pointers to the documents' sections", () => {
  const all = pointers();

  it("finds the pointers of the code (the test reads what it should)", () => {
    expect(all.filter((p) => p.document === "product.md").length).toBeGreaterThan(100);
    expect(headings.get("product.md")).toContain("Loan servicing");
  });

  it("names only headings that exist", () => {
    const broken = all.filter((p) => p.problem).map((p) => `${p.where}: ${p.problem}`);
    expect(broken).toEqual([]);
  });

  it("links within a document only to its own headings", () => {
    const broken: string[] = [];
    for (const [name, file] of documents) {
      const anchors = anchorsOf(headings.get(name) ?? []);
      const text = readFileSync(path.join(root, file), "utf8");
      for (const m of text.matchAll(/\]\(#([^)\s]+)\)/g))
        if (!anchors.has(m[1] as string)) broken.push(`${file}: no heading has the anchor #${m[1]}`);
    }
    expect(broken).toEqual([]);
  });
});

describe("docs/product.md stands alone", () => {
  const file = "docs/product.md";
  const text = readFileSync(path.join(root, file), "utf8");

  it("defers to no file outside the repository", () => {
    const outside = [/\.\.\//, /PRODUCT\.md/, /shared\//, /§/, /original[- ]spec/i, /\/work\//];
    const found = text
      .split("\n")
      .flatMap((line, i) => outside.filter((re) => re.test(line)).map((re) => `${file}:${i + 1}: ${re.source} in "${line.trim()}"`));
    expect(found).toEqual([]);
  });

  it("links only to files of the repository", () => {
    const broken: string[] = [];
    for (const m of text.matchAll(/\]\(([^)\s#]+)(?:#[^)\s]*)?\)/g)) {
      const target = m[1] as string;
      if (/^[a-z]+:/i.test(target)) continue;
      const resolved = path.resolve(root, path.dirname(file), target);
      if (!resolved.startsWith(root + path.sep) || !existsSync(resolved)) broken.push(`${file}: ${target}`);
    }
    expect(broken).toEqual([]);
  });
});
