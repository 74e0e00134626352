// The words of "Download my data" are the catalogue's `dataExport` namespace
// (app/i18n/messages/{en,hi}/dataExport.ts): the PDF is written in the language of the request that
// downloads it. The JSON file keeps its machine keys and names each section in English, read here.
import en from "../../i18n/messages/en/dataExport.ts";

/** Each section's title in English, by the table it is read from (app/server/privacy/tables.server.ts lists them in order). */
export const SECTION_TITLES = en.section;
export type SectionTable = keyof typeof SECTION_TITLES;
