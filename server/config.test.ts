import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "./config";

describe("parseConfig", () => {
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
  ])("names %s when its value %j is bad", (name, value) => {
    expect(() => parseConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => parseConfig({ [name]: value })).toThrow(new RegExp(`${name}:`));
  });
});
