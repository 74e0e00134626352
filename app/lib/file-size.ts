import { fileTooLargeMessage } from "../domain/kyc/documents.ts";

/**
 * Browser only: the message for a form whose chosen file is over `maxBytes`,
 * or null. Checked before sending, so a phone does not upload megabytes only
 * to be refused (the server refuses them too, with the same words).
 */
export function oversizedFile(form: HTMLFormElement, maxBytes: number): string | null {
  const input = form.elements.namedItem("file");
  const file = input instanceof HTMLInputElement ? input.files?.[0] : undefined;
  return file && file.size > maxBytes ? fileTooLargeMessage(maxBytes) : null;
}
