// The readable copy of "Download my data" (docs/product.md "Protecting data and the service"): a
// cover (for whom, when, what it holds, how to read it), each section with records as a table when
// it has few columns and as a list of labelled values otherwise, and who received the data. Every
// word is whole in app/domain/privacy/export-text.ts; values read by export-format.ts.
import { formatDateTimeIST } from "../../domain/india-date.ts";
import type { LenderIdentity } from "../../domain/lender.ts";
import { cellText, columnLabel, type ExportRow, type JsonValue } from "../../domain/privacy/export-format.ts";
import { EXPORT_TEXT, fillText } from "../../domain/privacy/export-text.ts";
import { RECIPIENT_KINDS } from "../../domain/privacy/notice.ts";
import { MUTED, newDocument, Writer } from "../pdf/pdf.server.ts";
import type { BorrowerExport, ExportSection } from "./export.server.ts";

/** A section with at most this many columns is one table; wider ones list each record's values. */
const TABLE_COLUMNS = 6;

export async function renderExportPdf(data: BorrowerExport, facts: { brandName: string; lender: LenderIdentity }): Promise<Uint8Array> {
  const at = new Date(data.generatedAt);
  const { doc, regular, bold } = await newDocument(EXPORT_TEXT.title, at);
  doc.setAuthor(facts.lender.name);
  const w = new Writer(doc, regular, bold, `${facts.lender.name} · ${facts.brandName}`);
  cover(w, data, facts, at);
  for (const section of data.sections) if (section.rows.length) writeSection(w, section);
  w.newPage();
  w.heading(EXPORT_TEXT.recipientsHeading, 14);
  if (!data.recipients.length) w.text(EXPORT_TEXT.recipientsNone);
  else {
    w.text(EXPORT_TEXT.recipientsIntro, { size: 9, color: MUTED, gap: 6 });
    w.table(
      EXPORT_TEXT.recipientColumns,
      data.recipients.map((r) => [
        RECIPIENT_KINDS[r.kind],
        r.name,
        formatDateTimeIST(new Date(r.firstAt)),
        formatDateTimeIST(new Date(r.lastAt)),
      ]),
      { widths: [0.4, 0.2, 0.2, 0.2], align: ["left", "left", "left", "left"] },
    );
  }
  w.footers(fillText(EXPORT_TEXT.footer, { brand: facts.brandName }));
  return doc.save();
}

function cover(w: Writer, data: BorrowerExport, facts: { lender: LenderIdentity }, at: Date) {
  w.text(EXPORT_TEXT.title, { size: 18, font: w.bold, gap: 4 });
  w.text(
    fillText(EXPORT_TEXT.preparedFor, {
      name: data.borrower.name ?? "—",
      mobile: data.borrower.mobile ?? "—",
      date: formatDateTimeIST(at),
    }),
    { size: 10, gap: 8 },
  );
  w.text(fillText(EXPORT_TEXT.contents, { lender: facts.lender.name }), { gap: 4 });
  w.text(EXPORT_TEXT.conventions, { size: 9, color: MUTED, gap: 8 });
  w.heading(EXPORT_TEXT.sectionsHeading);
  const held = data.sections.filter((s) => s.rows.length);
  w.rows([
    ...held.map(
      (s) =>
        [
          s.label,
          s.rows.length === 1 ? EXPORT_TEXT.sectionCountOne : fillText(EXPORT_TEXT.sectionCount, { count: s.rows.length }),
        ] as const,
    ),
    [EXPORT_TEXT.recipientsHeading, String(data.recipients.length)] as const,
  ]);
  const empty = data.sections.filter((s) => !s.rows.length);
  if (empty.length) {
    w.text(EXPORT_TEXT.nothingHeld, { size: 9, gap: 2 });
    w.text(empty.map((s) => s.label).join("; "), { size: 9, color: MUTED });
  }
}

function writeSection(w: Writer, section: ExportSection) {
  w.heading(section.label, 14);
  const rows = section.rows;
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  // A value the same in every record (the loan they are all about) is said once, above them.
  const first = rows[0] ?? {};
  const same = rows.length > 1 ? columns.filter((c) => rows.every((row) => sameValue(row[c], first[c]))) : [];
  if (same.length) w.rows(recordRows(first, same));
  const varying = columns.filter((c) => !same.includes(c));
  if (!varying.length) return;
  const body = rows.map((row) => varying.map((c) => cellText(c, row[c], 400)));
  const widths = varying.map(() => 1 / varying.length);
  if (varying.length <= TABLE_COLUMNS && w.tableFits(varying.map(columnLabel), body, widths)) {
    w.table(varying.map(columnLabel), body, { widths, align: varying.map((c) => (c.endsWith("_paise") ? "right" : "left")) });
    return;
  }
  rows.forEach((row, i) => {
    if (rows.length > 1) w.text(fillText(EXPORT_TEXT.recordHeading, { n: i + 1, total: rows.length }), { font: w.bold, gap: 2 });
    w.rows(recordRows(row, varying));
  });
}

const sameValue = (x: JsonValue | undefined, y: JsonValue | undefined) => JSON.stringify(x ?? null) === JSON.stringify(y ?? null);

/** A record's values that hold something, each with its column's label. */
const recordRows = (row: ExportRow, columns: readonly string[]) =>
  columns.filter((c) => row[c] != null).map((c) => [columnLabel(c), cellText(c, row[c])] as const);
