import { describe, expect, it } from "vitest";
import { readForm } from "./form";

const post = (contentType: string, body: string) =>
  new Request("http://localhost/login", { method: "POST", headers: { "content-type": contentType }, body });

describe("readForm", () => {
  it("reads url-encoded and multipart forms", async () => {
    expect((await readForm(post("application/x-www-form-urlencoded", "email=a%40b.c"))).get("email")).toBe("a@b.c");
    const multipart = '--x\r\nContent-Disposition: form-data; name="email"\r\n\r\na@b.c\r\n--x--\r\n';
    expect((await readForm(post("multipart/form-data; boundary=x", multipart))).get("email")).toBe("a@b.c");
  });

  it.each([
    ["multipart without a boundary", "multipart/form-data", ""],
    ["multipart whose boundary the body never uses", "multipart/form-data; boundary=other", "email=a"],
  ])("answers 400 with the reason for %s (found by the fuzz suite)", async (_name, contentType, body) => {
    const error: unknown = await readForm(post(contentType, body)).catch((e: unknown) => e);
    // What the server's wrapper (app-errors.ts) turns into the route's 400 error response.
    expect(error).toMatchObject({
      code: "bad_request",
      status: 400,
      message: expect.stringMatching(/form could not be read/),
    });
  });
});
