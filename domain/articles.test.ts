import { describe, expect, it } from "vitest";
import { ARTICLE_SLUG_MAX, articleStatus, isArticleSlug, parseBlogImageFile, parseTags, slugify } from "./articles";

describe("article rules", () => {
  it("makes addresses from titles: ASCII words, apostrophes dropped, whole words up to the limit", () => {
    expect(slugify("Covered vs. Uncovered: Which Is Right?")).toBe("covered-vs-uncovered-which-is-right");
    expect(slugify("Austin's summer heat")).toBe("austins-summer-heat");
    expect(slugify("Café & Crème brûlée")).toBe("cafe-and-creme-brulee");
    expect(slugify("!!!")).toBe("article");
    const long = slugify("word ".repeat(100));
    expect(long.length).toBeLessThanOrEqual(ARTICLE_SLUG_MAX);
    expect(isArticleSlug(long)).toBe(true);
    expect(isArticleSlug("Bad Slug")).toBe(false);
    expect(isArticleSlug("double--hyphen")).toBe(false);
    expect(isArticleSlug(`${"a".repeat(ARTICLE_SLUG_MAX + 1)}`)).toBe(false);
  });

  it("normalises tags and drops duplicates and empties", () => {
    expect(parseTags("Winter, covered storage, , WINTER,  Security ")).toEqual([
      "winter",
      "covered-storage",
      "security",
    ]);
    expect(parseTags("")).toEqual([]);
  });

  it("tells draft, scheduled and published apart by the clock", () => {
    const now = new Date("2026-06-01T12:00:00Z");
    expect(articleStatus(null, now)).toBe("draft");
    expect(articleStatus("2026-06-01T12:00:01Z", now)).toBe("scheduled");
    expect(articleStatus("2026-06-01T12:00:00Z", now)).toBe("published");
  });

  it("reads only the image files the pipeline writes", () => {
    expect(parseBlogImageFile("abc-1", "w640.avif")).toEqual({ width: 640, format: "avif" });
    for (const [id, file] of [
      ["abc", "w641.avif"],
      ["abc", "w640.png"],
      ["../x", "w640.jpg"],
      ["abc", "w640n1.jpg"],
    ])
      expect(parseBlogImageFile(id!, file!)).toBeUndefined();
  });
});
