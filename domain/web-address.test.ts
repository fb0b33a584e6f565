import { describe, expect, it } from "vitest";
import { linkableWebsite, normalizeWebsite } from "./web-address";

describe("normalizeWebsite", () => {
  it("keeps http and https addresses, adding https:// to a bare host", () => {
    expect(normalizeWebsite(" https://acme.example/rv ")).toBe("https://acme.example/rv");
    expect(normalizeWebsite("http://acme.example")).toBe("http://acme.example/");
    expect(normalizeWebsite("www.acme.example")).toBe("https://www.acme.example/");
  });

  it("refuses every other scheme, however it is spelled, and addresses with credentials or no dot", () => {
    for (const value of [
      "javascript:alert(1)",
      "JavaScript:alert(document.cookie)",
      " javascript:alert(1)",
      "java\tscript:alert(1)",
      "java\tscript://x.example/%0aalert(1)",
      "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
      "vbscript:msgbox(1)",
      "ftp://files.example.com",
      "file:///etc/passwd",
      "https://user:pass@acme.example",
      "https://localhost",
      "",
    ])
      expect(normalizeWebsite(value), JSON.stringify(value)).toBeNull();
  });
});

describe("linkableWebsite", () => {
  it("passes a stored http(s) website and drops anything else", () => {
    expect(linkableWebsite("https://acme.example/")).toBe("https://acme.example/");
    expect(linkableWebsite("javascript:alert(1)")).toBeNull();
    expect(linkableWebsite(null)).toBeNull();
  });
});
