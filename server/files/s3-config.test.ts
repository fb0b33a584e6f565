import { describe, expect, it } from "vitest";
import { parseConfig } from "../config";
import { s3SettingsOf } from "./s3-settings";

describe("S3 settings", () => {
  it("are off without S3_BUCKET, and default the region and path style", () => {
    expect(s3SettingsOf(parseConfig({}))).toBeUndefined();
    expect(s3SettingsOf(parseConfig({ S3_BUCKET: "rv-files" }))).toEqual({
      bucket: "rv-files",
      endpoint: undefined,
      region: "us-east-1",
      accessKeyId: undefined,
      secretAccessKey: undefined,
      forcePathStyle: false,
      prefix: "",
    });
  });

  it("take an endpoint, keys, path style and a prefix (one trailing slash dropped)", () => {
    const settings = s3SettingsOf(
      parseConfig({
        S3_BUCKET: "rv.files-2",
        S3_ENDPOINT: "http://127.0.0.1:9000",
        S3_REGION: "auto",
        S3_ACCESS_KEY_ID: "id",
        S3_SECRET_ACCESS_KEY: "secret",
        S3_FORCE_PATH_STYLE: "true",
        S3_PREFIX: "rvstorage/prod/",
      }),
    );
    expect(settings).toMatchObject({
      endpoint: "http://127.0.0.1:9000",
      region: "auto",
      forcePathStyle: true,
      prefix: "rvstorage/prod",
    });
  });

  it.each([
    ["S3_BUCKET", "ab"],
    ["S3_BUCKET", "Upper-Case"],
    ["S3_BUCKET", "under_score"],
    ["S3_BUCKET", "-starts-with-hyphen"],
    ["S3_BUCKET", "two..dots"],
    ["S3_BUCKET", "x".repeat(64)],
    ["S3_ENDPOINT", "s3.example.com"],
    ["S3_ENDPOINT", "ftp://s3.example.com"],
    ["S3_REGION", "US East"],
    ["S3_FORCE_PATH_STYLE", "yes"],
    ["S3_PREFIX", "../up"],
    ["S3_PREFIX", "/absolute"],
    ["S3_PREFIX", "a//b"],
    ["S3_PREFIX", ".hidden"],
    ["S3_PREFIX", "with space"],
  ])("refuse %s=%j, naming the variable", (name, value) => {
    expect(() => parseConfig({ S3_BUCKET: "rv-files", [name]: value })).toThrow(new RegExp(`${name}: `));
  });

  it("want both keys or neither, and a bucket when any other S3 setting is set", () => {
    expect(() => parseConfig({ S3_BUCKET: "rv-files", S3_ACCESS_KEY_ID: "id" })).toThrow(
      /S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: set both/,
    );
    expect(() => parseConfig({ S3_ENDPOINT: "http://127.0.0.1:9000", S3_PREFIX: "x" })).toThrow(
      /S3_BUCKET: must be set when S3_ENDPOINT, S3_PREFIX are/,
    );
  });

  it("never echo the secret key in an error", () => {
    let message = "";
    try {
      parseConfig({ S3_BUCKET: "rv-files", S3_SECRET_ACCESS_KEY: "very-secret-value" });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/set both/);
    expect(message).not.toContain("very-secret-value");
  });
});
