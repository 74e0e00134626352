export const MIN_STAFF_PASSWORD_LENGTH = 12;

/** The staff password rules a browser can check (the common-password list is checked on the server). */
export function passwordLengthProblem(password: string): string | null {
  if (password.length < MIN_STAFF_PASSWORD_LENGTH) return `Use at least ${MIN_STAFF_PASSWORD_LENGTH} characters.`;
  if (password.length > 200) return "Use at most 200 characters.";
  return null;
}
