// The PDF of "Download my data" names each column of a section in words (a column missing here is
// shown by its database name, as the JSON file names it). One label per column name across the
// tables; amounts (`_paise`) are shown in rupees and rates (`_bps`) as percentages beside them.
// The labels are the catalogue's `dataExport.column` (Hindi in app/i18n/messages/hi/dataExport.ts);
// these are the English ones.
import en from "../../i18n/messages/en/dataExport.ts";

export const COLUMN_LABELS: Readonly<Record<string, string>> = en.column;
