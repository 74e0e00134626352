/**
 * Who an account is, and what each staff role may do (docs/product.md "Staff roles").
 * A staff account is never a borrower account.
 */
export const STAFF_ROLES = ["credit", "operations", "support", "finance", "compliance", "admin"] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];
export type UserRole = "borrower" | StaffRole;
export const USER_ROLES: readonly UserRole[] = ["borrower", ...STAFF_ROLES];

export const isStaffRole = (role: string): role is StaffRole => (STAFF_ROLES as readonly string[]).includes(role);

/** How a role is named on staff pages. */
export const ROLE_LABEL: Record<StaffRole, string> = {
  credit: "Credit officer",
  operations: "Operations",
  support: "Support",
  finance: "Finance",
  compliance: "Compliance",
  admin: "Administrator",
};

const ALL: readonly StaffRole[] = STAFF_ROLES;
/** The four roles that work borrowers' cases (finance and compliance read, and have their own pages). */
const CASEWORK: readonly StaffRole[] = ["credit", "operations", "support", "admin"];

/**
 * The permission table: each staff action and the roles that may take it. Where
 * a role may only read a page (operations and support on the review page), it
 * holds the `…view` permission and not the one that changes anything.
 */
export const PERMISSIONS = {
  /** The queue, the review page, documents and the selfie (each view audited). */
  "applications.view": CASEWORK,
  /** Take, ask the borrower for more, approve, reject. */
  "applications.decide": ["credit", "admin"],
  /** Disburse, retry or cancel a payout (never the one who approved: four eyes). */
  "payouts.manage": ["operations", "admin"],
  /** Record, reverse and release payments; refunds; waive penal charges. */
  "payments.manage": ["operations", "admin"],
  /** The loan page and ledger. */
  "loans.view": ALL,
  /** The collections queue and its contact notes. */
  "collections.manage": ["operations", "support", "admin"],
  /** Borrower search and the borrower page. */
  "borrowers.view": ALL,
  /** Presence, device reload, notices to a borrower. */
  "borrowers.manage": CASEWORK,
  /** Reply to, assign and resolve tickets. */
  "tickets.manage": ["support", "admin"],
  /** Reports. */
  "reports.view": CASEWORK,
  /** The audit log. */
  "audit.view": ALL,
  /** The audit log as CSV. */
  "audit.export": ["compliance", "admin"],
  /** Products, holidays, staff accounts. */
  "settings.manage": ["admin"],
  "loans.write_off": ["admin"],
  /** The credit policy in force, its proposals and history. */
  "policy.view": ["credit", "compliance", "admin"],
  /** Propose a change to the credit policy; confirm another administrator's proposal. */
  "policy.manage": ["admin"],
  /** Approve a deviation from the credit policy as the second approver (never the first). */
  "policy.deviate": ["credit", "admin"],
  /** The books: trial balance, ledgers, journals, portfolio, income, reconciliation, and their exports. */
  "books.view": ["finance", "compliance", "admin"],
  /** Close a month, save the books' rules, import provider statements and resolve reconciliation exceptions (audited). */
  "books.manage": ["finance", "admin"],
  /** The credit bureau files: each run, its records and downloads, rejections and corrections. */
  "bureau.view": ["finance", "compliance", "admin"],
  /** Make a bureau file, import a bureau's rejections, send corrections (audited). */
  "bureau.manage": ["finance", "admin"],
  /** The central KYC registry: the 10-day list of uploads, the numbers kept. */
  "ckyc.view": ["operations", "compliance", "admin"],
  /** Try a failed CKYC upload again now (audited). */
  "ckyc.manage": ["compliance", "admin"],
  /** Sanctions screening: the lists, the possible and confirmed matches (never shown to other staff or the borrower). */
  "aml.view": ["compliance", "admin"],
  /** Load a list, clear or confirm a match, mark its report made (audited). */
  "aml.manage": ["compliance", "admin"],
  /** Data-rights requests (corrections, erasures) and the breach register. */
  "privacy.view": ["compliance", "admin"],
  /** Answer a data-rights request, carry out an erasure, record a breach and send its report and notices (audited). */
  "privacy.manage": ["compliance", "admin"],
} as const satisfies Record<string, readonly StaffRole[]>;
export type Permission = keyof typeof PERMISSIONS;

/** Whether an account of `role` may take the action; a borrower may take none. */
export function can(role: UserRole, permission: Permission): boolean {
  return isStaffRole(role) && (PERMISSIONS[permission] as readonly StaffRole[]).includes(role);
}

/** The roles holding a permission. */
export const rolesWith = (permission: Permission): readonly StaffRole[] => PERMISSIONS[permission];
