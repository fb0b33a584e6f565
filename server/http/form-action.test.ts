import { describe, expect, it } from "vitest";
import { z } from "zod";
import { MAX_ECHOED_LENGTH, formFailure, parseFormSubmission } from "./form-action";

const schema = z.object({
  name: z
    .string({ error: "Enter the facility's name." })
    .trim()
    .min(1)
    .max(80, "Use at most 80 characters for the name."),
  email: z.email({ error: "Enter a valid email address, like name@example.com." }),
  spaces: z.number({ error: "Enter the number of spaces." }).int().min(1, "A facility has at least 1 space."),
  covered: z.boolean().default(false),
  amenities: z.array(z.enum(["gated", "power"])).default([]),
  password: z.string().min(8),
});

function form(entries: Array<[string, string | Blob]>): FormData {
  const data = new FormData();
  for (const [name, value] of entries) data.append(name, value);
  return data;
}

describe("parseFormSubmission", () => {
  it("answers the parsed, coerced data and drops fields the schema does not know", () => {
    const result = parseFormSubmission(
      schema,
      form([
        ["name", "  Lakeside RV  "],
        ["email", "a@example.com"],
        ["spaces", "40"],
        ["covered", "on"],
        ["amenities", "gated"],
        ["amenities", "power"],
        ["password", "long enough"],
        ["role", "admin"],
      ]),
    );
    expect(result).toMatchObject({
      ok: true,
      data: {
        name: "Lakeside RV",
        email: "a@example.com",
        spaces: 40,
        covered: true,
        amenities: ["gated", "power"],
        password: "long enough",
      },
    });
    expect(result.ok && "role" in result.data).toBe(false);
  });

  it("names each field's problem in the schema's words and keeps what was typed", () => {
    const result = parseFormSubmission(
      schema,
      form([
        ["name", ""],
        ["email", "not-an-email"],
        ["spaces", "many"],
        ["amenities", "gated"],
        ["amenities", "pool"],
        ["password", "short"],
      ]),
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.fieldErrors).toEqual({
      name: ["Enter the facility's name."],
      email: ["Enter a valid email address, like name@example.com."],
      spaces: ["Enter the number of spaces."],
      "amenities[1]": ["Choose one of the options."],
      password: ["Use at least 8 characters."],
    });
    expect(result.values).toEqual({ name: "", email: "not-an-email", spaces: "many", amenities: ["gated", "pool"] });
  });

  it("never echoes passwords, secrets, files or unknown fields", () => {
    const withSecrets = z.object({ name: z.string().max(3), apiToken: z.string(), photo: z.any(), notes: z.string() });
    const result = parseFormSubmission(
      withSecrets,
      form([
        ["name", "too long"],
        ["apiToken", "tok_123"],
        ["photo", new File(["x"], "photo.jpg", { type: "image/jpeg" })],
        ["notes", "hidden by option"],
        ["password", "hunter22"],
        ["extra", "x"],
        ["__intent__", "{}"],
        ["__state__", "x"],
      ]),
      { hideFields: ["notes"] },
    );
    expect(result.ok).toBe(false);
    expect(result.values).toEqual({ name: "too long" });
    expect(JSON.stringify(result)).not.toContain("hunter22");
    expect(JSON.stringify(result)).not.toContain("tok_123");
  });

  it("lets the schema reject an oversized string, and echoes at most a bounded part of it", () => {
    const huge = "x".repeat(MAX_ECHOED_LENGTH + 5_000);
    const result = parseFormSubmission(schema, form([["name", huge]]));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.fieldErrors.name).toEqual(["Use at most 80 characters for the name."]);
    expect(result.values.name).toHaveLength(MAX_ECHOED_LENGTH);
  });

  it("gives plain words where a schema has no message of its own", () => {
    const bare = z.object({ title: z.string().min(3).max(5), count: z.number().max(9), site: z.url() });
    const result = parseFormSubmission(
      bare,
      form([
        ["title", "ab"],
        ["count", "12"],
        ["site", "nope"],
      ]),
    );
    expect(!result.ok && result.fieldErrors).toEqual({
      title: ["Use at least 3 characters."],
      count: ["Enter 9 or less."],
      site: ["Enter a full web address, starting with https://."],
    });
    const missing = parseFormSubmission(bare, form([]));
    expect(!missing.ok && missing.fieldErrors.title).toEqual(["Fill in this field."]);
  });

  it("reports a whole-form rule as the form error", () => {
    const range = z
      .object({ from: z.number(), to: z.number() })
      .refine((v) => v.from <= v.to, { message: "The start must come before the end." });
    const result = parseFormSubmission(
      range,
      form([
        ["from", "5"],
        ["to", "2"],
      ]),
    );
    expect(result).toMatchObject({ ok: false, formError: "The start must come before the end.", fieldErrors: {} });
  });
});

describe("formFailure", () => {
  it("answers the errors and values with the status, adding errors found after parsing", () => {
    const parsed = parseFormSubmission(z.object({ slug: z.string() }), form([["slug", "lakeside"]]));
    const answer = formFailure(parsed, 409, { fieldErrors: { slug: ["That address is taken."] } });
    expect(answer.init?.status).toBe(409);
    expect(answer.data).toEqual({
      ok: false,
      fieldErrors: { slug: ["That address is taken."] },
      values: { slug: "lakeside" },
    });
  });
});

describe("Conform's client controls", () => {
  it("are ignored, so a crafted intent can neither crash the action nor skip validation", () => {
    const intent = JSON.stringify({ type: "validate", payload: { name: "name" } });
    for (const value of ["{not json", intent]) {
      const result = parseFormSubmission(
        z.object({ name: z.string().max(3) }),
        form([
          ["name", "toolong"],
          ["__intent__", value],
        ]),
      );
      expect(result).toMatchObject({ ok: false, fieldErrors: { name: ["Use at most 3 characters."] } });
    }
  });
});
