import { describe, expect, it } from "vitest";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ConfigError, mailFrom, parseConfig, publicOrigin, publicUrl, publicUrlWarning } from "./config";

describe("parseConfig", () => {
  it("takes Stripe only with both keys and a price id for every plan and interval", () => {
    expect(() => parseConfig({ STRIPE_SECRET_KEY: "sk_test_1" })).toThrow(
      /STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET: set both/,
    );
    expect(() => parseConfig({ STRIPE_WEBHOOK_SECRET: "whsec_1" })).toThrow(/set both/);
    expect(() => parseConfig({ STRIPE_SECRET_KEY: "pk_test_1", STRIPE_WEBHOOK_SECRET: "whsec_1" })).toThrow(
      /STRIPE_SECRET_KEY: must be a Stripe secret key/,
    );
    // The shipped plans file has no price ids: Stripe cannot start with it.
    expect(() => parseConfig({ STRIPE_SECRET_KEY: "sk_test_1", STRIPE_WEBHOOK_SECRET: "whsec_1" })).toThrow(
      /no Stripe price id for: Basic month, Basic year/,
    );
    expect(() => parseConfig({ STRIPE_API_BASE: "ftp://x" })).toThrow(/STRIPE_API_BASE/);
  });

  it("accepts a tile URL template with {z}, {x} and {y} in order", () => {
    const url = "https://{s}.tiles.example/{z}/{x}/{y}@2x.png?key=k";
    expect(parseConfig({ MAP_TILE_URL: url }).MAP_TILE_URL).toBe(url);
  });

  it("takes MAP_TILE_URL=none as no tile server: maps draw the state outlines instead", () => {
    expect(parseConfig({ MAP_TILE_URL: "none" }).MAP_TILE_URL).toBe("");
  });

  it("runs with no environment at all", () => {
    const config = parseConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.DATA_DIR).toBe("./data");
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.dataDir).toMatch(/data$/);
  });

  it("runs the daily jobs unless DAILY_JOBS=off, and names a bad value", () => {
    expect(parseConfig({}).DAILY_JOBS).toBe("on");
    expect(parseConfig({ DAILY_JOBS: "off" }).DAILY_JOBS).toBe("off");
    expect(() => parseConfig({ DAILY_JOBS: "never" })).toThrow(/DAILY_JOBS: must be on or off/);
  });

  it("treats empty strings as unset", () => {
    expect(parseConfig({ PORT: "", DATABASE_URL: "" }).PORT).toBe(3000);
  });

  it("accepts a PostgreSQL URL", () => {
    expect(parseConfig({ DATABASE_URL: "postgres://root@127.0.0.1:5432/test" }).DATABASE_URL).toBe(
      "postgres://root@127.0.0.1:5432/test",
    );
  });

  it.each([
    ["PORT", "abc"],
    ["PORT", "70000"],
    ["DATABASE_URL", "mysql://x"],
    ["LOG_LEVEL", "loud"],
    ["PUBLIC_URL", "not a url"],
    ["PUBLIC_URL", "ftp://files.example"],
    ["MAP_TILE_URL", "ftp://tiles.example/{z}/{x}/{y}.png"],
    ["MAP_TILE_URL", "https://tiles.example/{y}/{x}/{z}.png"],
    ["MAP_TILE_URL", `https://${"{z}".repeat(20_000)}`],
    ["SMTP_URL", "mail.example:587"],
    ["SMTP_URL", "https://mail.example"],
    ["SMTP_URL", "smtp://"],
    ["MAIL_FROM", "nobody"],
    ["MAIL_FROM", "RV Storage <not an address>"],
    ["MAIL_FROM", "a@example.com, b@example.com"],
    ["MAIL_FROM", "A, B <b@example.com>"],
    ["MAIL_FROM", "RV <a@example.com"],
  ])("names %s when its value %j is bad", (name, value) => {
    expect(() => parseConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => parseConfig({ [name]: value })).toThrow(new RegExp(`${name}:`));
  });
});

describe("the shared cache settings", () => {
  it("has none to purge by default, and lets pages be shared for 60 s and 300 s stale", () => {
    const config = parseConfig({});
    expect(config.CACHE_PURGE_URL).toBeUndefined();
    expect(config.SHARED_CACHE_SECONDS).toBe(60);
    expect(config.SHARED_CACHE_STALE_SECONDS).toBe(300);
    expect(parseConfig({ SHARED_CACHE_SECONDS: "0", SHARED_CACHE_STALE_SECONDS: "86400" })).toMatchObject({
      SHARED_CACHE_SECONDS: 0,
      SHARED_CACHE_STALE_SECONDS: 86_400,
    });
  });

  it("takes the cache's origin with a token of 16 characters or more", () => {
    const config = parseConfig({ CACHE_PURGE_URL: "http://127.0.0.1:8080/", CACHE_PURGE_TOKEN: "0123456789abcdef" });
    expect(config.CACHE_PURGE_URL).toBe("http://127.0.0.1:8080");
    expect(config.CACHE_PURGE_TOKEN).toBe("0123456789abcdef");
  });

  it("refuses a cache address without its token, naming the missing variable", () => {
    expect(() => parseConfig({ CACHE_PURGE_URL: "http://127.0.0.1:8080" })).toThrow(
      /CACHE_PURGE_TOKEN: must be set when CACHE_PURGE_URL is/,
    );
  });

  it.each([
    ["CACHE_PURGE_URL", "127.0.0.1:8080", /http\(s\) URL of the shared cache/],
    ["CACHE_PURGE_URL", "ftp://cache.internal", /http\(s\) URL/],
    ["CACHE_PURGE_URL", "http://cache.internal/purge", /without a path, query or fragment/],
    ["CACHE_PURGE_URL", "http://user:pass@cache.internal", /without a path/],
    ["CACHE_PURGE_TOKEN", "short", /at least 16 characters/],
    ["CACHE_PURGE_TOKEN", "sixteen chars with spaces", /printable ASCII without spaces/],
    ["SHARED_CACHE_SECONDS", "86401", /between 0 and 86400/],
    ["SHARED_CACHE_SECONDS", "1.5", /whole number/],
    ["SHARED_CACHE_STALE_SECONDS", "-1", /between 0 and 86400/],
  ])("names %s when its value %j is bad", (name, value, message) => {
    const env = { CACHE_PURGE_TOKEN: "0123456789abcdef", [name]: value };
    expect(() => parseConfig(env)).toThrow(new RegExp(`${name}: .*${message.source}`));
  });
});

describe("the public URL", () => {
  it("is PUBLIC_URL when set, else http://localhost:PORT (never a request's Host)", () => {
    expect(publicUrl(parseConfig({}))).toBe("http://localhost:3000");
    expect(publicOrigin(parseConfig({ PORT: "4100" }))).toBe("http://localhost:4100");
    const config = parseConfig({ PUBLIC_URL: "https://rvstorage.example/" });
    expect(publicUrl(config)).toBe("https://rvstorage.example/");
    expect(publicOrigin(config)).toBe("https://rvstorage.example");
  });

  it("warns, naming PUBLIC_URL, when it is unset behind a proxy or on a non-local interface", () => {
    expect(publicUrlWarning(parseConfig({}))).toMatch(/PUBLIC_URL is unset/);
    expect(publicUrlWarning(parseConfig({ HOST: "127.0.0.1", TRUST_PROXY: "1" }))).toMatch(/PUBLIC_URL/);
    expect(publicUrlWarning(parseConfig({ HOST: "192.168.1.5" }))).toMatch(/PUBLIC_URL/);
    for (const HOST of ["127.0.0.1", "localhost", "::1"])
      expect(publicUrlWarning(parseConfig({ HOST }))).toBeUndefined();
    expect(
      publicUrlWarning(parseConfig({ PUBLIC_URL: "https://rvstorage.example", TRUST_PROXY: "1" })),
    ).toBeUndefined();
  });
});

describe("email settings", () => {
  it("accepts smtp:// and smtps:// URLs with credentials, and never echoes a bad one's password", () => {
    expect(parseConfig({ SMTP_URL: "smtp://user:pass@mail.example:587" }).SMTP_URL).toBe(
      "smtp://user:pass@mail.example:587",
    );
    expect(parseConfig({ SMTP_URL: "smtps://mail.example" }).SMTP_URL).toBe("smtps://mail.example");
    expect(parseConfig({}).SMTP_URL).toBeUndefined();
    expect(() => parseConfig({ SMTP_URL: "http://user:s3cret@mail.example" })).toThrow(
      /SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/,
    );
    expect(() => parseConfig({ SMTP_URL: "http://user:s3cret@mail.example" })).not.toThrow(/s3cret/);
  });

  it("takes MAIL_FROM as an address or Name <address>", () => {
    expect(parseConfig({ MAIL_FROM: "RV Storage <hello@rvstorage.example>" }).MAIL_FROM).toBe(
      "RV Storage <hello@rvstorage.example>",
    );
    expect(parseConfig({ MAIL_FROM: "hello@rvstorage.example" }).MAIL_FROM).toBe("hello@rvstorage.example");
  });

  it("defaults the From to a no-reply address at PUBLIC_URL's host, else localhost", () => {
    expect(mailFrom(parseConfig({}))).toBe("RV Storage Directory <no-reply@localhost>");
    expect(mailFrom(parseConfig({ PUBLIC_URL: "https://rvstorage.example:8443/app" }))).toBe(
      "RV Storage Directory <no-reply@rvstorage.example>",
    );
    expect(
      mailFrom(parseConfig({ PUBLIC_URL: "https://rvstorage.example", MAIL_FROM: "Owners <owners@rv.example>" })),
    ).toBe("Owners <owners@rv.example>");
  });
});

describe("promotion plans and invoice settings", () => {
  it("load the shipped plans and offline defaults", () => {
    const config = parseConfig({});
    expect(config.promotionPlans.plans.map((p) => p.tier)).toEqual(["Basic", "Preferred", "Pro"]);
    for (const plan of config.promotionPlans.plans) {
      expect(Number.isInteger(plan.prices.month)).toBe(true);
      expect(Number.isInteger(plan.prices.year)).toBe(true);
      expect(plan.stripePriceIds).toEqual({ month: "", year: "" });
    }
    expect(config.INVOICE_DUE_DAYS).toBe(14);
    expect(config.PROMOTION_GRACE_DAYS).toBe(7);
    expect(config.INVOICE_ISSUER).not.toBe("");
    expect(config.INVOICE_PAYMENT_INSTRUCTIONS).not.toBe("");
  });

  it("refuses a bad plans file, naming the field", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "plans-"));
    const file = path.join(dir, "plans.json");
    writeFileSync(
      file,
      JSON.stringify({ plans: [{ tier: "Pro", name: "Pro", prices: { month: 19.5, year: 1000 }, features: ["x"] }] }),
    );
    expect(() => parseConfig({ PROMOTION_PLANS_FILE: file })).toThrow(ConfigError);
    expect(() => parseConfig({ PROMOTION_PLANS_FILE: file })).toThrow(
      /plans\.0\.prices\.month: must be a whole number of cents/,
    );
    writeFileSync(file, "{ not json");
    expect(() => parseConfig({ PROMOTION_PLANS_FILE: file })).toThrow(/not JSON/);
    expect(() => parseConfig({ PROMOTION_PLANS_FILE: path.join(dir, "missing.json") })).toThrow(
      /PROMOTION_PLANS_FILE: cannot read/,
    );
  });

  it("accepts an override with Stripe price ids and refuses a duplicate tier or a bad price id", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "plans-"));
    const file = path.join(dir, "plans.json");
    const plan = { tier: "Pro", name: "Pro", prices: { month: 100, year: 1000 }, features: ["First"] };
    writeFileSync(file, JSON.stringify({ plans: [{ ...plan, stripePriceIds: { month: "price_123", year: "" } }] }));
    expect(parseConfig({ PROMOTION_PLANS_FILE: file }).promotionPlans.plans[0]!.stripePriceIds.month).toBe("price_123");
    writeFileSync(file, JSON.stringify({ plans: [plan, plan] }));
    expect(() => parseConfig({ PROMOTION_PLANS_FILE: file })).toThrow(/plans: must list each tier once/);
    writeFileSync(file, JSON.stringify({ plans: [{ ...plan, stripePriceIds: { month: "prod_1", year: "" } }] }));
    expect(() => parseConfig({ PROMOTION_PLANS_FILE: file })).toThrow(/plans\.0\.stripePriceIds\.month/);
  });

  it.each([
    ["INVOICE_DUE_DAYS", "0"],
    ["INVOICE_DUE_DAYS", "ten"],
    ["PROMOTION_GRACE_DAYS", "-1"],
  ])("refuses %s=%s", (name, value) => {
    expect(() => parseConfig({ [name]: value })).toThrow(new RegExp(`${name}:`));
  });
});
