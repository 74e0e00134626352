/**
 * Control characters no keyboard types and the database cannot store (a NUL
 * byte above all); tab, line feed and carriage return are text.
 */
// oxlint-disable-next-line no-control-regex -- matching them is the point
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

/** True when a text holds a control character that `readForm` refuses (for bodies read another way). */
export const hasControlCharacter = (value: string) => CONTROL_CHARACTER.test(value);

/** A name given by the browser (an uploaded file's), kept as text: control characters dropped. */
export const withoutControlCharacters = (value: string) => value.replace(new RegExp(CONTROL_CHARACTER.source, "g"), "");
