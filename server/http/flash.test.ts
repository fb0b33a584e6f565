import { afterEach, describe, expect, it } from "vitest";
import { createFlash, replaceFlash } from "./flash";
import { redirectWithFlash } from "./form-action";

const SECRET = "s".repeat(32);

/** The cookie a browser would send back for a Set-Cookie value. */
const sent = (setCookie: string) => setCookie.split(";")[0]!;
const requestWith = (cookie: string) => new Request("http://localhost/owner", { headers: { Cookie: cookie } });

afterEach(() => replaceFlash(undefined));

describe("flash cookie", () => {
  it("carries one message to the next request and clears itself", async () => {
    const flash = createFlash({ secret: SECRET, secure: false });
    const setCookie = await flash.set({ kind: "success", text: "Listing saved." });
    expect(setCookie).toMatch(/^flash=/);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).toMatch(/Path=\//);
    expect(setCookie).not.toMatch(/Secure/);

    const { flash: message, headers } = await flash.read(requestWith(`other=1; ${sent(setCookie)}`));
    expect(message).toEqual({ kind: "success", text: "Listing saved." });
    const clearing = headers.get("Set-Cookie") ?? "";
    expect(clearing).toMatch(/^flash=;/);
    expect(clearing).toMatch(/Max-Age=0/);
  });

  it("is Secure with the __Host- prefix on an https site", async () => {
    const flash = createFlash({ secret: SECRET, secure: true });
    const setCookie = await flash.set({ kind: "info", text: "Hello" });
    expect(setCookie).toMatch(/^__Host-flash=/);
    expect(setCookie).toMatch(/Secure/);
    expect((await flash.read(requestWith(sent(setCookie)))).flash).toEqual({ kind: "info", text: "Hello" });
  });

  it("ignores a tampered or foreign-signed cookie, and still clears it", async () => {
    const flash = createFlash({ secret: SECRET, secure: false });
    const value = sent(await flash.set({ kind: "success", text: "Saved" }));
    const [name, signed] = [value.slice(0, value.indexOf("=")), value.slice(value.indexOf("=") + 1)];
    const forged = btoa(encodeURIComponent(JSON.stringify({ kind: "error", text: "Your account is suspended" })));
    const tampered = `${name}=${forged}.${decodeURIComponent(signed).split(".")[1]}`;
    const other = sent(await createFlash({ secret: "o".repeat(32), secure: false }).set({ kind: "info", text: "x" }));

    for (const cookie of [tampered, other, "flash=garbage"]) {
      const { flash: message, headers } = await flash.read(requestWith(cookie));
      expect(message).toBeNull();
      expect(headers.get("Set-Cookie")).toMatch(/Max-Age=0/);
    }
  });

  it("sets nothing when no flash was sent", async () => {
    const flash = createFlash({ secret: SECRET, secure: false });
    const { flash: message, headers } = await flash.read(requestWith("session=abc"));
    expect(message).toBeNull();
    expect(headers.get("Set-Cookie")).toBeNull();
  });

  it("refuses to carry an empty or overlong message", async () => {
    const flash = createFlash({ secret: SECRET, secure: false });
    await expect(flash.set({ kind: "info", text: "" })).rejects.toThrow();
    await expect(flash.set({ kind: "info", text: "x".repeat(501) })).rejects.toThrow();
  });
});

describe("redirectWithFlash", () => {
  it("answers a 303 that sets the flash and keeps the caller's headers", async () => {
    const flash = createFlash({ secret: SECRET, secure: false });
    replaceFlash(flash);
    const response = await redirectWithFlash(
      "/owner/listings",
      { kind: "success", text: "Listing saved." },
      { headers: { "Set-Cookie": "session=1; Path=/" } },
    );
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe("/owner/listings");
    const cookies = response.headers.getSetCookie();
    expect(cookies[0]).toBe("session=1; Path=/");
    expect((await flash.read(requestWith(sent(cookies[1]!)))).flash).toEqual({
      kind: "success",
      text: "Listing saved.",
    });
  });
});
