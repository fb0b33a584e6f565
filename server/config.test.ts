import { describe, expect, it } from "vitest";
import { ConfigError, mailFrom, parseConfig, publicOrigin, publicUrl, publicUrlWarning } from "./config";

describe("parseConfig", () => {
  it("accepts a tile URL template with {z}, {x} and {y} in order", () => {
    const url = "https://{s}.tiles.example/{z}/{x}/{y}@2x.png?key=k";
    expect(parseConfig({ MAP_TILE_URL: url }).MAP_TILE_URL).toBe(url);
  });

  it("runs with no environment at all", () => {
    const config = parseConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.DATA_DIR).toBe("./data");
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.dataDir).toMatch(/data$/);
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
