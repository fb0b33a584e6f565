import { describe, expect, it } from "vitest";
import { placeFromSlug } from "../geo/resolve-place";
import { DEMO_ARTICLES, DEMO_ARTICLE_TAGS, demoCoverSvg } from "./demo-articles";

// The demo articles of a fresh install (docs/product.md section 13, "Articles").

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const CITY_LINK = /\]\(\/rv-storage\/([a-z0-9-]+)\)/g;
const CARD_LINK = /^\[[^\]\n]+\]\(\/rv-storage\/[a-z0-9-]+\)$/;
const BLOG_LINK = /\]\(\/blog\/([a-z0-9-]+)\)/g;

function words(markdown: string): number {
  return markdown.split(/\s+/).filter((w) => /[A-Za-z0-9]/.test(w)).length;
}

describe("demo articles", () => {
  it("has exactly five, with unique slugs, newest first, all in 2026", () => {
    expect(DEMO_ARTICLES).toHaveLength(5);
    const slugs = DEMO_ARTICLES.map((a) => a.slug);
    expect(new Set(slugs).size).toBe(5);
    const times = DEMO_ARTICLES.map((a) => Date.parse(a.publishedAt));
    for (const [i, a] of DEMO_ARTICLES.entries()) {
      expect(new Date(a.publishedAt).toISOString()).toBe(a.publishedAt);
      expect(a.publishedAt.startsWith("2026-")).toBe(true);
      if (i > 0) expect(times[i]).toBeLessThan(times[i - 1]!);
    }
  });

  it.each(DEMO_ARTICLES.map((a) => [a.slug, a] as const))("%s keeps the field limits", (_slug, a) => {
    expect(a.slug).toMatch(SLUG);
    expect(a.slug.length).toBeLessThanOrEqual(80);
    expect(a.title.length).toBeLessThanOrEqual(90);
    expect(a.excerpt.length).toBeGreaterThanOrEqual(120);
    expect(a.excerpt.length).toBeLessThanOrEqual(200);
    expect(a.excerpt).not.toMatch(/[*#[\]<>`_]/);
    expect(a.seoTitle.length).toBeLessThanOrEqual(60);
    expect(a.seoDescription.length).toBeGreaterThanOrEqual(120);
    expect(a.seoDescription.length).toBeLessThanOrEqual(155);
    expect(a.tags.length).toBeGreaterThanOrEqual(1);
    expect(a.tags.length).toBeLessThanOrEqual(3);
    for (const tag of a.tags) expect(DEMO_ARTICLE_TAGS).toContain(tag);
    expect(a.coverAlt.length).toBeGreaterThan(0);
    expect(a.coverAlt.length).toBeLessThanOrEqual(200);
    for (const c of a.palette) expect(c).toMatch(/^#[0-9a-f]{6}$/);
    const count = words(a.body);
    expect(count).toBeGreaterThanOrEqual(500);
    expect(count).toBeLessThanOrEqual(1000);
  });

  it.each(DEMO_ARTICLES.map((a) => [a.slug, a] as const))("%s links only to places that resolve", (_slug, a) => {
    const citySlugs = [...a.body.matchAll(CITY_LINK)].map((m) => m[1]!);
    expect(citySlugs.length).toBeGreaterThanOrEqual(1);
    expect(citySlugs.length).toBeLessThanOrEqual(3);
    for (const slug of citySlugs) expect(placeFromSlug(slug)?.slug, slug).toBe(slug);
    const own = new Set(DEMO_ARTICLES.map((d) => d.slug));
    for (const m of a.body.matchAll(BLOG_LINK)) expect(own.has(m[1]!), m[1]).toBe(true);
  });

  it.each(DEMO_ARTICLES.map((a) => [a.slug, a] as const))("%s has a card link on its own paragraph", (_slug, a) => {
    const paragraphs = a.body.split(/\n\s*\n/).map((p) => p.trim());
    expect(paragraphs.some((p) => CARD_LINK.test(p))).toBe(true);
  });

  it("uses plain Markdown: no images, no raw HTML, headings where long", () => {
    for (const a of DEMO_ARTICLES) {
      expect(a.body).not.toMatch(/!\[/);
      expect(a.body).not.toMatch(/<\/?[a-z]/i);
      expect(a.body).toMatch(/^### /m);
    }
    for (const i of [0, 2, 4]) expect(DEMO_ARTICLES[i]!.body.match(/^## /gm)!.length).toBeGreaterThanOrEqual(4);
    expect(DEMO_ARTICLES[1]!.body).toMatch(/^\| --- \|/m);
  });
});

describe("demoCoverSvg", () => {
  it.each(DEMO_ARTICLES.map((a) => [a.slug, a] as const))("%s draws a small, safe, stable cover", (_slug, a) => {
    const svg = demoCoverSvg(a);
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg).toContain('viewBox="0 0 1600 900"');
    expect(svg).not.toMatch(/<script/i);
    expect(svg).not.toMatch(/href/i);
    expect(svg).not.toMatch(/<text/i);
    expect(Buffer.byteLength(svg, "utf8")).toBeLessThan(6000);
    for (const c of a.palette) expect(svg).toContain(c);
    expect(demoCoverSvg(a)).toBe(svg);
  });
});
