import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { type ListedPerson, parseNationalList, parseUnList } from "../../app/domain/aml/sanctions.ts";

// The sanctions lists as data (docs/decisions/0007-sanctions-screening.md): the UN sample read as the
// UN publishes its list, the national samples in our CSV, every field of them; malformed files refused
// with what is wrong named.

const read = (name: string) => readFileSync(path.resolve(import.meta.dirname, "../../reference-data/sanctions", name), "utf8");
const un = parseUnList(read("un-consolidated-sample.xml"));
const uapa = parseNationalList(read("uapa-51a-sample.csv"), "uapa_51a");
const wmd = parseNationalList(read("wmd-12a-sample.csv"), "wmd_12a");
const byRef = (list: readonly ListedPerson[], ref: string) => list.find((p) => p.ref === ref);

/** A minimal UN list around one entry's inner XML. */
const unWith = (individual: string, entities = "<ENTITIES/>") =>
  `<?xml version="1.0"?><CONSOLIDATED_LIST><INDIVIDUALS><INDIVIDUAL>${individual}</INDIVIDUAL></INDIVIDUALS>${entities}</CONSOLIDATED_LIST>`;
const ENTRY = "<DATAID>1</DATAID><FIRST_NAME>TEST</FIRST_NAME><SECOND_NAME>PERSON</SECOND_NAME><REFERENCE_NUMBER>QDi.1</REFERENCE_NUMBER>";

describe("the UN consolidated list", () => {
  it("reads the sample's 30 individuals and 3 entities", () => {
    expect(un.filter((p) => p.kind === "individual")).toHaveLength(30);
    expect(un.filter((p) => p.kind === "entity")).toHaveLength(3);
    expect(new Set(un.map((p) => p.source))).toEqual(new Set(["un_consolidated"]));
  });

  it("reads every field of an individual: the name's parts in order, aliases, date of birth, listing, nationality, list type", () => {
    expect(byRef(un, "QDi.901")).toEqual({
      source: "un_consolidated",
      ref: "QDi.901",
      kind: "individual",
      names: ["MOHAMMED IQBAL QURESHI", "Mohd Iqbal Kureshi", "Abu Zaid"],
      dobs: [{ year: 1971, month: 4, day: 12 }],
      listedOn: "2009-06-10",
      nationality: "Pakistan",
      program: "Al-Qaida",
    });
    expect(byRef(un, "QDi.902")?.names).toEqual(["ABDUL RAHMAN SALIM AL-HAMDANI", "Abdulrahman al-Hamdani", "Abd al-Rahman Salim"]);
  });

  it("reads years alone, two dates of birth, a range of years, and an approximate year as the years either side", () => {
    expect(byRef(un, "QDi.902")?.dobs).toEqual([
      { year: 1968, month: null, day: null },
      { year: 1969, month: null, day: null },
    ]);
    expect(byRef(un, "QDi.910")?.dobs).toEqual([
      { year: 1970, month: 1, day: 1 },
      { year: 1971, month: null, day: null },
    ]);
    expect(byRef(un, "TAi.903")?.dobs).toEqual([{ fromYear: 1960, toYear: 1962 }]);
    expect(byRef(un, "TAi.904")?.dobs).toEqual([{ fromYear: 1954, toYear: 1956 }]);
  });

  it("leaves out empty aliases, keeps low-quality and formerly-known-as ones, and keeps accents as written", () => {
    expect(byRef(un, "QDi.912")?.names).toEqual(["MUHAMMAD TAHIR SHAHZAD"]);
    expect(byRef(un, "TAi.930")?.names).toEqual(["SHER AHMAD WARDAK", "Sher Agha"]);
    expect(byRef(un, "CFi.925")?.names).toEqual(["ANGE-FÉLIX NDOMBE", "Ange Felix Ndombe"]);
  });

  it("reads an entity's name, aliases and listing, with no date of birth or nationality", () => {
    expect(byRef(un, "QDe.931")).toEqual({
      source: "un_consolidated",
      ref: "QDe.931",
      kind: "entity",
      names: ["AL-NOOR RELIEF TRUST", "Al Nur Relief Trust", "Noor Welfare Foundation"],
      dobs: [],
      listedOn: "2004-07-06",
      nationality: null,
      program: "Al-Qaida",
    });
  });

  it("reads a minimal entry, entities decoded, a date with a zone, and several names in one alias", () => {
    const [p] = parseUnList(
      unWith(
        `${ENTRY}<LISTED_ON>2001-01-25</LISTED_ON><INDIVIDUAL_ALIAS><QUALITY>Good</QUALITY><ALIAS_NAME>A &amp; B; C&#233;</ALIAS_NAME></INDIVIDUAL_ALIAS>` +
          `<INDIVIDUAL_DATE_OF_BIRTH><DATE>1960-01-01-05:00</DATE></INDIVIDUAL_DATE_OF_BIRTH><INDIVIDUAL_DATE_OF_BIRTH/>`,
      ),
    );
    expect(p).toMatchObject({ names: ["TEST PERSON", "A & B", "Cé"], dobs: [{ year: 1960, month: 1, day: 1 }], listedOn: "2001-01-25" });
  });

  it.each([
    ["<LIST/>", /root element is <LIST>/],
    [`<CONSOLIDATED_LIST><INDIVIDUALS/></CONSOLIDATED_LIST>`, /0 <ENTITIES> elements/],
    [`<CONSOLIDATED_LIST><INDIVIDUALS/><ENTITIES/></CONSOLIDATED_LIST>`, /no individual and no entity/],
    [unWith("<DATAID>1</DATAID><FIRST_NAME>A</FIRST_NAME>"), /INDIVIDUAL on line 1 \(DATAID 1\): no REFERENCE_NUMBER/],
    [unWith("<DATAID>x</DATAID>"), /no DATAID/],
    [unWith("<DATAID>1</DATAID><REFERENCE_NUMBER>QDi.1</REFERENCE_NUMBER>"), /no FIRST_NAME/],
    [unWith(`${ENTRY}<INDIVIDUAL_DATE_OF_BIRTH><DATE>1960-02-30</DATE></INDIVIDUAL_DATE_OF_BIRTH>`), /"1960-02-30" that is not a date/],
    [unWith(`${ENTRY}<INDIVIDUAL_DATE_OF_BIRTH><YEAR>60</YEAR></INDIVIDUAL_DATE_OF_BIRTH>`), /year of birth "60"/],
    [
      unWith(
        `${ENTRY}<INDIVIDUAL_DATE_OF_BIRTH><TYPE_OF_DATE>BETWEEN</TYPE_OF_DATE><FROM_YEAR>1962</FROM_YEAR><TO_YEAR>1960</TO_YEAR></INDIVIDUAL_DATE_OF_BIRTH>`,
      ),
      /not a range/,
    ],
    [
      unWith(`${ENTRY}<INDIVIDUAL_DATE_OF_BIRTH><TYPE_OF_DATE>CIRCA</TYPE_OF_DATE><YEAR>1960</YEAR></INDIVIDUAL_DATE_OF_BIRTH>`),
      /unknown TYPE_OF_DATE "CIRCA"/,
    ],
    [unWith(`${ENTRY}<LISTED_ON>25/01/2001</LISTED_ON>`), /LISTED_ON "25\/01\/2001"/],
    [unWith(ENTRY, `<ENTITIES><ENTITY>${ENTRY}</ENTITY></ENTITIES>`), /QDi.1 is on the list twice/],
    [unWith(ENTRY, `<ENTITIES><PERSON/></ENTITIES>`), /<PERSON> inside <ENTITIES>/],
  ])("refuses a list that is not one, or an entry it cannot screen (%#)", (xml, message) => {
    expect(() => parseUnList(xml)).toThrow(message);
  });

  it.each([
    [`<CONSOLIDATED_LIST>\n<INDIVIDUALS>\n<INDIVIDUAL>`, /Line 3: <INDIVIDUAL>, opened on line 3, is never closed \(the file ends early\)/],
    [`<CONSOLIDATED_LIST>\n<INDIVIDUALS></INDIVIDUAL>`, /Line 2: the end tag <\/INDIVIDUAL> closes <INDIVIDUALS>/],
    [`<!DOCTYPE x [<!ENTITY a "b">]><CONSOLIDATED_LIST/>`, /DOCTYPE/],
    [`<CONSOLIDATED_LIST>&nbsp;</CONSOLIDATED_LIST>`, /unknown entity "&nbsp;"/],
    [`<CONSOLIDATED_LIST>A & B</CONSOLIDATED_LIST>`, /an "&" that starts no entity/],
    [`<CONSOLIDATED_LIST/><CONSOLIDATED_LIST/>`, /a second root element/],
    [`text<CONSOLIDATED_LIST/>`, /text outside the root element/],
    [`<CONSOLIDATED_LIST><!-- never closed </CONSOLIDATED_LIST>`, /a comment that is never closed/],
    [`<CONSOLIDATED_LIST a="1" a="2"/>`, /attribute a appears twice/],
    ["", /no root element/],
  ])("refuses malformed XML, naming the line (%#)", (xml, message) => {
    expect(() => parseUnList(xml)).toThrow(message);
  });
});

describe("the national lists (our CSV)", () => {
  it("reads every field of the UAPA sample's rows", () => {
    expect(uapa).toHaveLength(10);
    expect(byRef(uapa, "UAPA-IV-901")).toEqual({
      source: "uapa_51a",
      ref: "UAPA-IV-901",
      kind: "individual",
      names: ["Gurpreet Singh Randhawa", "Gopi", "Gurpreet Randhava"],
      dobs: [{ year: 1987, month: 8, day: 19 }],
      listedOn: "2023-02-17",
      nationality: "Indian",
      program: "S.O. 901(E) (FICTIONAL SAMPLE)",
    });
    expect(byRef(uapa, "UAPA-IV-903")?.dobs).toEqual([]);
    expect(byRef(uapa, "UAPA-IV-905")?.dobs).toEqual([{ fromYear: 1976, toYear: 1978 }]);
    expect(byRef(uapa, "UAPA-IV-908")?.dobs).toEqual([{ year: 1985, month: 3, day: null }]);
    expect(byRef(uapa, "UAPA-I-910")).toEqual({
      source: "uapa_51a",
      ref: "UAPA-I-910",
      kind: "entity",
      names: ["Tehreek-e-Nizam-e-Kashmir", "Tahrik e Nizam Kashmir", "TNK"],
      dobs: [],
      listedOn: "2024-10-10",
      nationality: null,
      program: "S.O. 910(E) (FICTIONAL SAMPLE)",
    });
  });

  it("reads the WMD Act sample: seven individuals, three entities", () => {
    expect(wmd.map((p) => p.kind)).toEqual([...Array(7).fill("individual"), ...Array(3).fill("entity")]);
    expect(byRef(wmd, "WMD-12A-903")).toMatchObject({
      source: "wmd_12a",
      names: ["Pak Hyon Su", "Pak Hyun-soo"],
      dobs: [{ year: 1980, month: 11, day: 11 }],
    });
    expect(byRef(wmd, "WMD-12A-905")?.dobs).toEqual([{ fromYear: 1958, toYear: 1960 }]);
  });

  it("reads columns in any order and case, a byte-order mark, quoted values, several dates of birth, and only the required columns", () => {
    const csv = '\uFEFFName,REF,Kind,dob\r\n"Khan, Imran",X-1,Individual,1970; 1971-02\r\n';
    expect(parseNationalList(csv, "uapa_51a")).toEqual([
      {
        source: "uapa_51a",
        ref: "X-1",
        kind: "individual",
        names: ["Khan, Imran"],
        dobs: [
          { year: 1970, month: null, day: null },
          { year: 1971, month: 2, day: null },
        ],
        listedOn: null,
        nationality: null,
        program: null,
      },
    ]);
  });

  it.each([
    ["ref,kind,name,alias\nA,individual,B,C\n", /Row 1, column 4: "alias" is not a column/],
    ["ref,kind\nA,individual\n", /Row 1: the header has no name column/],
    ["ref,kind,name,name\n", /the column name appears twice/],
    ["ref,kind,name\nA,person,B\n", /Row 2, column kind: "person" is neither individual nor entity/],
    ["ref,kind,name\nA,individual,B\nA,individual,C\n", /Row 3, column ref: "A" is the reference of an earlier row/],
    ["ref,kind,name,dob\nA,individual,B,12/03/1970\n", /Row 2, column dob: "12\/03\/1970" is not a list of dates/],
    ["ref,kind,name,dob\nA,individual,B,1970-02-30\n", /column dob/],
    ["ref,kind,name,dob\nA,entity,B,1970\n", /a date of birth for an entity/],
    ["ref,kind,name,listed_on\nA,entity,B,2023\n", /column listed_on: "2023" is not a date/],
    ["ref,kind,name\nA,individual,123\n", /column name: "123" is not a name/],
    ["ref,kind,name\nA,individual\n", /Row 2 has 2 values where the header has 3 columns/],
    ["ref,kind,name\n", /a header and no entries/],
    ["", /it has no header row/],
    ['ref,kind,name\nA,individual,"B\n', /never closed/],
  ])("refuses a file that is not the list, naming the row and column (%#)", (csv, message) => {
    expect(() => parseNationalList(csv, "wmd_12a")).toThrow(message);
  });
});
