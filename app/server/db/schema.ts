import { sql } from "drizzle-orm";
import { boolean, check, index, integer, pgTable, primaryKey, serial, smallint, text, timestamp } from "drizzle-orm/pg-core";

/** Published borrower feedback shown on the home page. */
export const feedback = pgTable(
  "feedback",
  {
    id: serial("id").primaryKey(),
    authorName: text("author_name").notNull(),
    city: text("city").notNull(),
    rating: smallint("rating").notNull(),
    body: text("body").notNull(),
    published: boolean("published").notNull().default(false),
    /** Entries created by the demo seed are shown with a "Sample" mark. */
    isSample: boolean("is_sample").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("feedback_rating_range", sql`${t.rating} between 1 and 5`),
    index("feedback_published_idx").on(t.published, t.createdAt),
  ],
);

/** Messages from the public contact form; staff read them in the back office. */
export const contactMessages = pgTable("contact_messages", {
  id: serial("id").primaryKey(),
  name: text("name").notNull(),
  mobile: text("mobile").notNull(),
  email: text("email").notNull(),
  message: text("message").notNull(),
  ip: text("ip"),
  userAgent: text("user_agent"),
  status: text("status").notNull().default("new"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Fixed-window rate-limit counters, shared by every server process.
 * One row per (action, key, window start); incremented atomically with an upsert.
 */
export const rateLimitCounters = pgTable(
  "rate_limit_counters",
  {
    action: text("action").notNull(),
    key: text("key").notNull(),
    windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.action, t.key, t.windowStart] }), index("rate_limit_window_idx").on(t.windowStart)],
);

/**
 * Loan products (PRODUCT.md §3). Staff edit these; every screen, PDF and API
 * reads the live values. Amounts in paise, rates and percentages in basis points.
 */
export const products = pgTable(
  "products",
  {
    code: text("code").primaryKey(), // 'emi' | 'salary_advance'
    name: text("name").notNull(),
    minAmountPaise: integer("min_amount_paise").notNull(),
    maxAmountPaise: integer("max_amount_paise").notNull(),
    amountStepPaise: integer("amount_step_paise").notNull(),
    /** EMI loan: months; salary advance: days between disbursal and repayment. */
    minTenure: integer("min_tenure").notNull(),
    maxTenure: integer("max_tenure").notNull(),
    /** EMI loan: default annual rate; salary advance: rate per day. */
    rateBps: integer("rate_bps").notNull(),
    feeBps: integer("fee_bps").notNull(),
    minFeePaise: integer("min_fee_paise").notNull().default(0),
    gstBps: integer("gst_bps").notNull(),
    penalChargePaise: integer("penal_charge_paise").notNull(),
    coolingOffDays: integer("cooling_off_days").notNull(),
    /** Salary advance: the most it can be as a share of net monthly salary. */
    salaryCapBps: integer("salary_cap_bps"),
    salariedOnly: boolean("salaried_only").notNull().default(false),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("products_amounts", sql`${t.minAmountPaise} > 0 and ${t.minAmountPaise} <= ${t.maxAmountPaise}`),
    check("products_tenure", sql`${t.minTenure} > 0 and ${t.minTenure} <= ${t.maxTenure}`),
  ],
);

/** Risk bands that set the EMI loan's rate from income and existing EMIs (first match by sort order). */
export const riskBands = pgTable("risk_bands", {
  id: serial("id").primaryKey(),
  sortOrder: integer("sort_order").notNull(),
  minIncomePaise: integer("min_income_paise").notNull(),
  /** Existing EMIs as a share of income must be at most this (null: no condition). */
  maxEmiToIncomeBps: integer("max_emi_to_income_bps"),
  rateBps: integer("rate_bps").notNull(),
});
