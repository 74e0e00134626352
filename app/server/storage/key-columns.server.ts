import { borrowerDocuments, bureauRuns } from "../db/schema.ts";

/**
 * Every column that holds a storage key (`docs/<uuid>`): an object under docs/ that none of them
 * names is an orphan, removed by the storage sweep once older than its grace period
 * (sweep.server.ts). A new column holding a key must be added here, or its files will be swept.
 */
export const STORAGE_KEY_COLUMNS = [borrowerDocuments.storageKey, bureauRuns.fileKey] as const;
