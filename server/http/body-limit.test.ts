import { createReadableStreamFromReadable } from "@react-router/node";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { send, serve } from "../../tests/setup/http";
import { BODY_LIMITS, bodyLimit, bodyLimitFor } from "./body-limit";

/**
 * The cap over HTTP, in front of a handler that reads the body exactly as React Router's Express
 * adapter does (a web stream over the Node request, then `formData()`).
 */
let port: number;
let close: () => Promise<void>;
let handled = 0;

beforeAll(async () => {
  const app = express();
  app.use(bodyLimit());
  app.use(async (req, res) => {
    handled++;
    const request = new Request(`http://localhost${req.originalUrl}`, {
      method: req.method,
      headers: req.headers as Record<string, string>,
      body: createReadableStreamFromReadable(req),
      duplex: "half",
    } as RequestInit);
    const type = req.headers["content-type"] ?? "";
    const text = type.includes("form") ? String((await request.formData()).get("field") ?? "") : await request.text();
    res.json({ length: text.length });
  });
  ({ port, close } = await serve(app));
});
afterAll(() => close());

const FORM = { "Content-Type": "application/x-www-form-urlencoded" };
const field = (n: number) => `field=${"x".repeat(n)}`;

describe("bodyLimitFor", () => {
  it("gives forms 16 kB, better-auth 8 kB, analytics its own limit and anything else the default", () => {
    expect(bodyLimitFor("/login")).toBe(16 * 1024);
    expect(bodyLimitFor("/signup.data")).toBe(BODY_LIMITS.form);
    expect(bodyLimitFor("/api/auth/sign-out")).toBe(BODY_LIMITS.auth);
    expect(bodyLimitFor("/API/Auth/sign-out")).toBe(BODY_LIMITS.auth);
    expect(bodyLimitFor("/api/analytics/events")).toBe(256 * 1024);
    expect(bodyLimitFor("/api/stripe/webhook")).toBe(512 * 1024);
    expect(bodyLimitFor("/API/stripe/webhook")).toBe(BODY_LIMITS.other);
    expect(bodyLimitFor("/api/places/suggest")).toBe(BODY_LIMITS.other);
    expect(bodyLimitFor("/owner/claim/abc123")).toBe(BODY_LIMITS.claimUpload);
    expect(bodyLimitFor("/owner/claim/abc123.data")).toBe(BODY_LIMITS.claimUpload);
    expect(BODY_LIMITS.claimUpload).toBeGreaterThan(30 * 1024 * 1024);
    for (const path of ["/owner/claim", "/owner/claim/", "/owner/claims/x", "/owner/claim/a/b", "/x/owner/claim/a"])
      expect(bodyLimitFor(path)).toBe(BODY_LIMITS.form);
    expect(bodyLimitFor("/owner/locations/ChIJabc/photos/upload")).toBe(BODY_LIMITS.photoUpload);
    expect(bodyLimitFor("/Owner/Locations/ChIJabc/Photos/Upload")).toBe(BODY_LIMITS.photoUpload);
    expect(BODY_LIMITS.photoUpload).toBeGreaterThan(10 * 15 * 1024 * 1024);
    expect(BODY_LIMITS.photoUpload).toBeLessThan(10 * 15 * 1024 * 1024 + 1024 * 1024);
    // The article editor takes a whole article; its image upload one photo; anything else under /admin/blog a form.
    for (const path of ["/admin/blog/edit/abc", "/admin/blog/edit/abc.data", "/admin/blog/preview", "/admin/blog/new"])
      expect(bodyLimitFor(path)).toBe(BODY_LIMITS.articleForm);
    expect(bodyLimitFor("/admin/blog/edit/abc/image")).toBe(BODY_LIMITS.articleImage);
    expect(bodyLimitFor("/admin/blog")).toBe(BODY_LIMITS.form);
    expect(bodyLimitFor("/admin/blog/edit/abc/other")).toBe(BODY_LIMITS.form);
    expect(BODY_LIMITS.articleForm).toBeLessThan(1024 * 1024);
    for (const path of [
      "/owner/locations/ChIJabc/photos",
      "/owner/locations/ChIJabc/photos.data",
      "/owner/locations//photos/upload",
      "/owner/locations/a/b/photos/upload",
      "/owner/locations/ChIJabc/update",
      "/x/owner/locations/a/photos/upload",
    ])
      expect(bodyLimitFor(path)).toBe(BODY_LIMITS.form);
    // A spelling the analytics route also matches gets the default, never more.
    expect(bodyLimitFor("/API/analytics/events")).toBe(BODY_LIMITS.other);
  });
});

describe("bodyLimit", () => {
  it("refuses a body whose Content-Length is over the cap before reading it", async () => {
    const before = handled;
    const body = field(20_000);
    const answer = await send(port, {
      method: "POST",
      path: "/login",
      headers: { ...FORM, "Content-Length": String(body.length) },
      chunks: [body.slice(0, 100)],
    });
    expect(answer.status).toBe(413);
    expect(answer.headers["content-type"]).toMatch(/text\/plain/);
    expect(answer.body).toContain("16 kB");
    expect(handled).toBe(before);
  });

  it("refuses a chunked body as soon as it passes the cap, without handing any of it on", async () => {
    const before = handled;
    const answer = await send(port, {
      method: "POST",
      path: "/login",
      headers: FORM,
      chunks: ["field=", "x".repeat(10_000), "x".repeat(10_000), "x".repeat(100_000)],
    });
    expect(answer.status).toBe(413);
    expect(answer.headers.connection).toBe("close");
    expect(handled).toBe(before);
  });

  it("answers JSON under /api", async () => {
    const answer = await send(port, {
      method: "POST",
      path: "/api/auth/sign-out",
      headers: { "Content-Type": "application/json" },
      chunks: ["{", " ".repeat(9000), "}"],
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ error: expect.stringContaining("8 kB") });
  });

  it("hands a chunked body within the cap on whole, in order", async () => {
    const parts = ["field=", "a".repeat(5000), "b".repeat(5000), "c".repeat(6000)];
    const answer = await send(port, { method: "POST", path: "/login", headers: FORM, chunks: parts });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ length: 16_000 });
  });

  it("hands on a body with Content-Length within the cap, and one exactly at the cap", async () => {
    for (const body of [field(10), field(BODY_LIMITS.form - "field=".length)]) {
      const answer = await send(port, {
        method: "POST",
        path: "/signup",
        headers: { ...FORM, "Content-Length": String(body.length) },
        chunks: [body],
      });
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toEqual({ length: body.length - "field=".length });
    }
  });

  it("lets the analytics endpoint take more than the default", async () => {
    const body = `[${" ".repeat(200_000)}]`;
    const answer = await send(port, {
      method: "POST",
      path: "/api/analytics/events",
      headers: { "Content-Type": "application/json" },
      chunks: [body.slice(0, 100_000), body.slice(100_000)],
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ length: body.length });
  });
});
