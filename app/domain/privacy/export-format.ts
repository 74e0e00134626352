// The values of "Download my data": JSON, with the database's column names.

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type ExportRow = Record<string, JsonValue>;
