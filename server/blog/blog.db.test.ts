/**
 * Writing and reading articles against the database (docs/product.md section 13): versions and
 * conflicts, publication and schedules as of a given time, old addresses, directory links checked
 * at save time, hostile Markdown stored harmlessly, and the feed and sitemap following the clock.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../tests/setup/db";
import { insertListing, insertPerson } from "../claims/test-support";
import type { DatabaseHandle } from "../db/client";
import { articles, auditLog } from "../db/schema";
import { AppError } from "../errors";
import { articleUrls } from "../seo/sitemap";
import { ensureDemoArticles } from "./demo";
import { DEMO_ARTICLES } from "./demo-articles";
import { articlesRss } from "./feed";
import { adminArticles, publicArticleBySlug, publicArticles, relatedArticles } from "./queries";
import {
  ArticleFieldError,
  createArticle,
  deleteArticle,
  restoreArticle,
  saveArticle,
  type ArticleInput,
  type Author,
} from "./service";

let handle: DatabaseHandle;
const db = () => handle.db;
let author: Author;
let listingSlug: string;
const T0 = new Date("2026-06-01T12:00:00Z");
const minutes = (n: number) => new Date(T0.getTime() + n * 60_000);

const input = (over: Partial<ArticleInput> = {}): ArticleInput => ({
  title: "Winter storage checklist",
  slug: "winter-storage-checklist",
  excerpt: "What to do before you park it.",
  tags: ["winter"],
  body: "## Drain the water\n\nFirst things first.\n",
  coverAlt: "",
  seoTitle: "",
  seoDescription: "",
  ...over,
});

beforeAll(async () => {
  handle = await createTestDatabase();
  const person = await insertPerson(db(), { role: "admin", email: "editor@example.com", name: "Eddie" });
  author = { userId: person.userId, email: person.email, name: "Eddie" };
  listingSlug = (await insertListing(db(), { name: "Lakeside RV Storage", city: "Austin", state: "TX" })).slug;
});
afterAll(async () => {
  await handle?.close();
});

describe(`articles (${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  it("saves with versions, refuses a stale save with who and when, and changes nothing then", async () => {
    const { id, slug } = await createArticle(db(), author, "Winter storage checklist");
    expect(slug).toBe("winter-storage-checklist");
    const first = await saveArticle(db(), { author, id, version: 1, input: input(), mode: "autosave", now: T0 });
    expect(first).toMatchObject({ version: 2, status: "draft" });
    // A second editor still holding version 1:
    const other = { ...author, name: "Olive" };
    const stale = saveArticle(db(), {
      author: other,
      id,
      version: 1,
      input: input({ body: "overwritten" }),
      mode: "save",
      now: T0,
    });
    await expect(stale).rejects.toMatchObject({ status: 409 });
    await expect(stale).rejects.toThrow(/Eddie saved this article at 12:00 UTC/);
    const [row] = await db().select().from(articles).where(eq(articles.id, id));
    expect(row!.body).toContain("Drain the water");
    expect(row!.bodyHtml).toContain('<h2 id="drain-the-water"');
    // Autosave writes no audit row; a save by hand does.
    expect((await db().select().from(auditLog).where(eq(auditLog.subjectId, id))).map((r) => r.action)).toEqual([
      "article.create",
    ]);
  });

  it("publishes only with working directory links, and shows a lone one as a card", async () => {
    const { id } = await createArticle(db(), author, "Where to store in Austin");
    const body = `Read on.\n\n[Austin](/rv-storage/austin-tx)\n\n[Lakeside](/location/${listingSlug})\n\n[Gone](/location/no-such-listing)\n`;
    const draft = await saveArticle(db(), {
      author,
      id,
      version: 1,
      input: input({ slug: "austin", body }),
      mode: "save",
      now: T0,
    });
    expect(draft.brokenLinks).toEqual(["/location/no-such-listing"]);
    const refused = saveArticle(db(), {
      author,
      id,
      version: 2,
      input: input({ slug: "austin", body }),
      mode: "publish",
      now: T0,
    });
    await expect(refused).rejects.toBeInstanceOf(ArticleFieldError);
    await expect(refused).rejects.toThrow("/location/no-such-listing");
    const fixed = body.replace("\n[Gone](/location/no-such-listing)\n", "");
    const published = await saveArticle(db(), {
      author,
      id,
      version: 2,
      input: input({ slug: "austin", body: fixed }),
      mode: "publish",
      now: T0,
    });
    expect(published.status).toBe("published");
    const found = await publicArticleBySlug(db(), "austin", T0);
    expect(found.kind).toBe("article");
    const html = found.kind === "article" ? found.article.bodyHtml : "";
    expect(html).toContain('<div class="directory-card"><a href="/rv-storage/austin-tx">');
    expect(html).toContain("Lakeside RV Storage");
  });

  it("keeps a scheduled article out of the list, the feed and the sitemap until its time", async () => {
    const { id } = await createArticle(db(), author, "Spring checklist");
    await saveArticle(db(), {
      author,
      id,
      version: 1,
      input: input({ title: "Spring checklist", slug: "spring-checklist" }),
      mode: "schedule",
      publishAt: minutes(1),
      now: T0,
    });
    const visible = async (at: Date) => ({
      page: (await publicArticleBySlug(db(), "spring-checklist", at)).kind,
      list: (await publicArticles(db(), at, { page: 1 })).rows.some((r) => r.slug === "spring-checklist"),
      feed: (await articlesRss(db(), "https://rv.example", at)).includes("https://rv.example/blog/spring-checklist"),
      sitemap: (await articleUrls(db(), at)).some((u) => u.path === "/blog/spring-checklist"),
    });
    expect(await visible(T0)).toEqual({ page: "missing", list: false, feed: false, sitemap: false });
    expect(await visible(minutes(1))).toEqual({ page: "article", list: true, feed: true, sitemap: true });
    // A time in the past is not a schedule.
    await expect(
      saveArticle(db(), {
        author,
        id,
        version: 2,
        input: input({ slug: "spring-checklist" }),
        mode: "schedule",
        publishAt: T0,
        now: minutes(2),
      }),
    ).rejects.toBeInstanceOf(ArticleFieldError);
  });

  it("answers an old address with the new one after a rename, and frees nothing another article uses", async () => {
    const { id } = await createArticle(db(), author, "Covered or not");
    await saveArticle(db(), {
      author,
      id,
      version: 1,
      input: input({ slug: "covered-or-not" }),
      mode: "publish",
      now: T0,
    });
    await saveArticle(db(), {
      author,
      id,
      version: 2,
      input: input({ slug: "covered-or-open" }),
      mode: "save",
      now: T0,
    });
    expect(await publicArticleBySlug(db(), "covered-or-not", T0)).toEqual({
      kind: "redirect",
      slug: "covered-or-open",
    });
    // Another article may not take the old address, nor the current one.
    const other = await createArticle(db(), author, "Another");
    for (const slug of ["covered-or-not", "covered-or-open"])
      await expect(
        saveArticle(db(), { author, id: other.id, version: 1, input: input({ slug }), mode: "save", now: T0 }),
      ).rejects.toThrow(`Another article uses the address /blog/${slug}`);
  });

  it("stores hostile Markdown harmlessly and refuses a body over the limit with nothing written", async () => {
    const { id } = await createArticle(db(), author, "Hostile");
    const body = [
      "<script>alert(1)</script>",
      '<img src=x onerror="alert(1)">',
      "[click](javascript:alert(1))",
      "[data](data:text/html;base64,PHNjcmlwdD4=)",
      "![x](https://evil.example/x.png)",
      "- a\n".repeat(3) + "    ".repeat(0),
    ].join("\n\n");
    await saveArticle(db(), { author, id, version: 1, input: input({ slug: "hostile", body }), mode: "save", now: T0 });
    const [row] = await db().select().from(articles).where(eq(articles.id, id));
    // As text, escaped, never as markup: no script element, no handler attribute, no such link or image.
    expect(row!.bodyHtml).not.toMatch(/<script|<[^>]*\son\w+=|href="(javascript|data):|src="https?:/i);
    expect(row!.bodyHtml).toContain("&lt;script&gt;");
    const huge = saveArticle(db(), {
      author,
      id,
      version: 2,
      input: input({ slug: "hostile", body: "x".repeat(5_000_000) }),
      mode: "save",
      now: T0,
    });
    await expect(huge).rejects.toThrow(/200 kB/);
    const [after] = await db().select().from(articles).where(eq(articles.id, id));
    expect(after!.version).toBe(2);
    expect(after!.body).toBe(body);
  });

  it("deletes softly and restores, with related articles by tag", async () => {
    const first = await publicArticleBySlug(db(), "austin", T0);
    expect(first.kind).toBe("article");
    const austin = first.kind === "article" ? first.article : undefined;
    expect((await relatedArticles(db(), austin!, minutes(5))).map((r) => r.slug)).toEqual(
      expect.arrayContaining(["spring-checklist", "covered-or-open"]),
    );
    await deleteArticle(db(), author, austin!.id);
    expect((await publicArticleBySlug(db(), "austin", T0)).kind).toBe("missing");
    const deleted = await adminArticles(
      db(),
      { q: "", status: "deleted", sort: "updated", dir: "desc", page: 1, pageSize: 50 },
      T0,
    );
    expect(deleted.rows.map((r) => r.slug)).toEqual(["austin"]);
    await restoreArticle(db(), author, austin!.id);
    expect((await publicArticleBySlug(db(), "austin", T0)).kind).toBe("article");
    await expect(restoreArticle(db(), author, austin!.id)).rejects.toBeInstanceOf(AppError);
  });

  it("loads the demo articles only into an empty blog", async () => {
    expect(await ensureDemoArticles(db())).toBe(0);
    await db().delete(articles);
    expect(await ensureDemoArticles(db())).toBe(DEMO_ARTICLES.length);
    const { rows } = await publicArticles(db(), new Date("2027-01-01T00:00:00Z"), { page: 1 });
    expect(rows).toHaveLength(DEMO_ARTICLES.length);
    expect(rows.every((r) => r.isDemo && r.coverImageId?.startsWith("demo-"))).toBe(true);
  });
});
