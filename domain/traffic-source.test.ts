import { describe, expect, it } from "vitest";
import { classifyTrafficSource } from "./traffic-source";

const site = "https://rvstorage.example";

describe("classifyTrafficSource", () => {
  it.each([
    [null, "direct"],
    ["", "direct"],
    ["   ", "direct"],
    ["https://rvstorage.example/rv-storage/austin-tx", "internal"],
    ["https://www.rvstorage.example/", "internal"],
    ["https://www.google.com/", "google"],
    ["https://google.co.uk/search?q=rv", "google"],
    ["https://www.google.com.au/", "google"],
    ["https://news.google.com/", "google"],
    ["android-app://com.google.android.googlequicksearchbox/", "google"],
    ["https://l.facebook.com/l.php?u=x", "facebook"],
    ["https://m.facebook.com/", "facebook"],
    ["https://t.co/abc", "twitter"],
    ["https://x.com/someone", "twitter"],
    ["https://twitter.com/", "twitter"],
    ["https://www.instagram.com/", "instagram"],
    ["https://www.linkedin.com/feed", "linkedin"],
    ["https://lnkd.in/xyz", "linkedin"],
    ["https://www.youtube.com/watch?v=1", "youtube"],
    ["https://youtu.be/1", "youtube"],
    ["https://www.bing.com/search?q=rv", "bing"],
    ["https://search.yahoo.com/", "yahoo"],
    ["https://duckduckgo.com/", "other"],
    ["https://googleusercontent.com/", "other"],
    ["https://notfacebook.com/", "other"],
    ["not a url", "other"],
    ["ftp://example.com/", "other"],
  ] as const)("%s is %s", (referrer, expected) => {
    expect(classifyTrafficSource(referrer, site)).toBe(expected);
  });

  it("treats the site's own host as internal whatever the port or scheme", () => {
    expect(classifyTrafficSource("http://127.0.0.1:3000/", "http://127.0.0.1:3000")).toBe("internal");
    expect(classifyTrafficSource("https://example.org/", "not a url")).toBe("other");
  });
});
