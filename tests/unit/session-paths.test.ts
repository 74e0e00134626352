import { describe, expect, it } from "vitest";
import { pageOf, safeRedirect } from "../../app/server/auth/session.server.ts";

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
});
