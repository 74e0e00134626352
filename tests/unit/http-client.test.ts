import { describe, expect, it, vi } from "vitest";
import { HttpError, http } from "../../app/lib/http.ts";

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

describe("browser HTTP client", () => {
  it.each([408, 409, 425, 429, 500, 502, 503, 504])("retries a GET once after %i", async (status) => {
    const fetchImpl = vi
      .fn()
      .mockResolvedValueOnce(json(status, {}))
      .mockResolvedValueOnce(json(200, { ok: true }));
    await expect(http("/x", { fetch: fetchImpl })).resolves.toEqual({ ok: true });
    expect(fetchImpl).toHaveBeenCalledTimes(2);
  });

  it("retries a GET only once, then reports the failure", async () => {
    const fetchImpl = vi.fn().mockResolvedValue(json(503, { error: "busy" }));
    await expect(http("/x", { fetch: fetchImpl })).rejects.toMatchObject({ status: 503, body: { error: "busy" } });
    expect(fetchImpl).toHaveBeenCalledTimes(2);
  });

  it("does not retry a GET after a status outside the list", async () => {
    const fetchImpl = vi.fn().mockResolvedValue(json(404, {}));
    await expect(http("/x", { fetch: fetchImpl })).rejects.toBeInstanceOf(HttpError);
    expect(fetchImpl).toHaveBeenCalledTimes(1);
  });

  it.each(["POST", "PUT", "PATCH", "DELETE"])("never retries a %s", async (method) => {
    const fetchImpl = vi.fn().mockResolvedValue(json(503, {}));
    await expect(http("/x", { method, fetch: fetchImpl })).rejects.toBeInstanceOf(HttpError);
    expect(fetchImpl).toHaveBeenCalledTimes(1);
  });

  it("sends an object body as JSON with a JSON content type", async () => {
    const fetchImpl = vi.fn().mockResolvedValue(json(200, {}));
    await http("/x", { method: "POST", body: { a: 1 }, fetch: fetchImpl });
    const init = fetchImpl.mock.calls[0]?.[1] as RequestInit;
    expect(new Headers(init.headers).get("Content-Type")).toBe("application/json");
    expect(init.body).toBe('{"a":1}');
  });

  it("leaves form data alone", async () => {
    const fetchImpl = vi.fn().mockResolvedValue(json(200, {}));
    const body = new FormData();
    body.set("a", "1");
    await http("/x", { method: "POST", body, fetch: fetchImpl });
    const init = fetchImpl.mock.calls[0]?.[1] as RequestInit;
    expect(new Headers(init.headers).get("Content-Type")).toBeNull();
    expect(init.body).toBe(body);
  });
});
