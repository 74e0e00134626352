// The readable copy of "Download my data" (docs/product.md "Protecting data and the service"): a
// cover (for whom, when, what it holds, how to read it), each section with records as a table when
// it has few columns and as a list of labelled values otherwise, and who received the data. Written
// in the language of the request that downloads it: every word is whole in the catalogue's
// `dataExport` namespace (app/i18n/messages/{en,hi}/dataExport.ts), the recipients' kinds are the
// `notice` namespace's; values read by app/domain/privacy/export-format.ts. The borrower's own
// values stay as stored.
import { formatDateTimeIST } from "../../domain/india-date.ts";
import type { LenderIdentity } from "../../domain/lender.ts";
import { cellText, type ExportRow, type JsonValue, type ValueWords } from "../../domain/privacy/export-format.ts";
import type { Language } from "../../i18n/languages.ts";
import { CATALOGUES } from "../../i18n/messages/index.ts";
import { plainTranslator } from "../../i18n/plain-format.ts";
import { MUTED, newDocument, Writer } from "../pdf/pdf.server.ts";
import type { BorrowerExport, ExportSection } from "./export.server.ts";

/** A section with at most this many columns is one table; wider ones list each record's values. */
const TABLE_COLUMNS = 6;

/** The PDF's words in one language: messages, labels of sections and columns, and how values read. */
function wordsFor(language: Language) {
  const t = plainTranslator(language, "dataExport");
  const { section, column } = CATALOGUES.en.dataExport;
  const values: ValueWords = { language, yes: t("yes"), no: t("no"), shortened: t("shortened") };
  return {
    t,
    values,
    /** A section's title; a table the catalogue does not name keeps the registry's label. */
    sectionLabel: (s: ExportSection) => (s.table in section ? t(`section.${s.table as keyof typeof section}`) : s.label),
    /** A column's label; a column the catalogue does not name is shown by its database name. */
    columnLabel: (c: string) => (c in column ? t(`column.${c as keyof typeof column}`) : c),
  };
}
type PdfWords = ReturnType<typeof wordsFor>;

export async function renderExportPdf(
  data: BorrowerExport,
  facts: { brandName: string; lender: LenderIdentity },
  language: Language = "en",
): Promise<Uint8Array> {
  const at = new Date(data.generatedAt);
  const words = wordsFor(language);
  const { t } = words;
  const { doc, regular, bold, leading, finish } = await newDocument(t("title"), at, language);
  doc.setAuthor(facts.lender.name);
  const w = new Writer(doc, regular, bold, t("header", { lender: facts.lender.name, brand: facts.brandName }), {
    leading,
    pageLabel: (page, pages) => t("page", { page, pages }),
  });
  cover(w, words, data, facts, at, language);
  for (const section of data.sections) if (section.rows.length) writeSection(w, words, section);
  w.newPage();
  w.heading(t("recipientsHeading"), 14);
  if (!data.recipients.length) w.text(t("recipientsNone"));
  else {
    // The kinds are plain words (no ICU), as the notice namespace keeps them.
    const kinds = CATALOGUES[language].notice.recipients;
    w.text(t("recipientsIntro"), { size: 9, color: MUTED, gap: 6 });
    w.table(
      [t("recipientColumn.kind"), t("recipientColumn.name"), t("recipientColumn.firstSent"), t("recipientColumn.lastSent")],
      data.recipients.map((r) => [
        kinds[r.kind],
        r.name,
        formatDateTimeIST(new Date(r.firstAt), language),
        formatDateTimeIST(new Date(r.lastAt), language),
      ]),
      { widths: [0.4, 0.2, 0.2, 0.2], align: ["left", "left", "left", "left"] },
    );
  }
  w.footers(t("footer", { brand: facts.brandName }));
  finish();
  return doc.save();
}

function cover(w: Writer, words: PdfWords, data: BorrowerExport, facts: { lender: LenderIdentity }, at: Date, language: Language) {
  const { t } = words;
  w.text(t("title"), { size: 18, font: w.bold, gap: 4 });
  w.text(
    t("preparedFor", {
      name: data.borrower.name ?? "—",
      mobile: data.borrower.mobile ?? "—",
      date: formatDateTimeIST(at, language),
    }),
    { size: 10, gap: 8 },
  );
  w.text(t("contents", { lender: facts.lender.name }), { gap: 4 });
  w.text(t("conventions"), { size: 9, color: MUTED, gap: 8 });
  w.heading(t("sectionsHeading"));
  const held = data.sections.filter((s) => s.rows.length);
  w.rows([
    ...held.map((s) => [words.sectionLabel(s), t("sectionCount", { count: s.rows.length })] as const),
    [t("recipientsHeading"), String(data.recipients.length)] as const,
  ]);
  const empty = data.sections.filter((s) => !s.rows.length);
  if (empty.length) {
    w.text(t("nothingHeld"), { size: 9, gap: 2 });
    w.text(empty.map(words.sectionLabel).join("; "), { size: 9, color: MUTED });
  }
}

function writeSection(w: Writer, words: PdfWords, section: ExportSection) {
  const { t, values, columnLabel } = words;
  w.heading(words.sectionLabel(section), 14);
  const rows = section.rows;
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  // A value the same in every record (the loan they are all about) is said once, above them.
  const first = rows[0] ?? {};
  const same = rows.length > 1 ? columns.filter((c) => rows.every((row) => sameValue(row[c], first[c]))) : [];
  if (same.length) w.rows(recordRows(words, first, same));
  const varying = columns.filter((c) => !same.includes(c));
  if (!varying.length) return;
  const body = rows.map((row) => varying.map((c) => cellText(c, row[c], 400, values)));
  const widths = varying.map(() => 1 / varying.length);
  if (varying.length <= TABLE_COLUMNS && w.tableFits(varying.map(columnLabel), body, widths)) {
    w.table(varying.map(columnLabel), body, { widths, align: varying.map((c) => (c.endsWith("_paise") ? "right" : "left")) });
    return;
  }
  rows.forEach((row, i) => {
    if (rows.length > 1) w.text(t("recordHeading", { n: i + 1, total: rows.length }), { font: w.bold, gap: 2 });
    w.rows(recordRows(words, row, varying));
  });
}

const sameValue = (x: JsonValue | undefined, y: JsonValue | undefined) => JSON.stringify(x ?? null) === JSON.stringify(y ?? null);

/** A record's values that hold something, each with its column's label. */
const recordRows = (words: PdfWords, row: ExportRow, columns: readonly string[]) =>
  columns.filter((c) => row[c] != null).map((c) => [words.columnLabel(c), cellText(c, row[c], undefined, words.values)] as const);
