// A page of several forms: its action answers the one that did not pass with that form's key, and
// each form takes the result only when the key is its own.
import type { SubmissionResult } from "@conform-to/react";

/** What a page of several forms answers one that did not pass: which form (its key), and the form's result. */
export type KeyedActionData = { key: string; result: SubmissionResult<string[]> } | undefined;

/** The action's result for the form `key`, or nothing when it answered another form. */
export const resultFor = (actionData: KeyedActionData, key: string) => (actionData?.key === key ? actionData.result : undefined);
