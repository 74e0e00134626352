import { describe, expect, it } from "vitest";
import { pageOf, safeRedirect } from "../../app/web/guards.server.ts";

describe("guard paths", () => {
  it("maps client data requests back to the page they are for", () => {
    expect(pageOf(new Request("http://x/User/Dashboard.data?_routes=root"))).toEqual({ path: "/User/Dashboard", search: "" });
    expect(pageOf(new Request("http://x/User/Loans.data?tab=2"))).toEqual({ path: "/User/Loans", search: "?tab=2" });
    expect(pageOf(new Request("http://x/_root.data"))).toEqual({ path: "/", search: "" });
    expect(pageOf(new Request("http://x/User/Dashboard"))).toEqual({ path: "/User/Dashboard", search: "" });
  });

  it("redirects only to paths of this site", () => {
    expect(safeRedirect("/User/Dashboard?x=1")).toBe("/User/Dashboard?x=1");
    expect(safeRedirect("//evil.example")).toBe("/User/Dashboard");
    expect(safeRedirect("/\\evil.example")).toBe("/User/Dashboard");
    expect(safeRedirect("https://evil.example")).toBe("/User/Dashboard");
    expect(safeRedirect(null, "/admin/presence")).toBe("/admin/presence");
  });

  it("judges a redirect after the URL parser's normalisation, and returns it in the parser's form", () => {
    // What the browser makes of these is another site: tabs and line breaks are dropped, "\\" is "/".
    for (const hostile of [
      "/\t/evil.example",
      "/\n/evil.example",
      "/\r\n/evil.example",
      "\\/evil.example",
      "/\\/evil.example",
      "/.//evil.example",
      "/%2e//evil.example",
      " //evil.example",
      "/\u0000/evil",
    ]) {
      const to = safeRedirect(hostile);
      expect(new URL(to, "https://sugam.example").origin, JSON.stringify(hostile)).toBe("https://sugam.example");
      expect(to.startsWith("//"), JSON.stringify(hostile)).toBe(false);
    }
    expect(safeRedirect("/User/Dashboard\r\nSet-Cookie: x=1")).toBe("/User/DashboardSet-Cookie:%20x=1");
    expect(safeRedirect("/quickStart/Step2?a=b#c")).toBe("/quickStart/Step2?a=b#c");
    expect(safeRedirect("/a".repeat(2000))).toBe("/User/Dashboard");
  });
});
