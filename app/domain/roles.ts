/** Who an account is: a borrower, or a member of the lender's staff. */
export type UserRole = "borrower" | "staff" | "admin";
