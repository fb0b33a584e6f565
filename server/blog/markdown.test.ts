import { describe, expect, it } from "vitest";
import {
  ARTICLE_BODY_MAX_BYTES,
  type DirectoryLink,
  directoryLinksIn,
  MAX_MARKDOWN_NESTING,
  MarkdownRejectedError,
  renderArticleMarkdown,
} from "./markdown";

/** The deepest nesting of `tag` in `html`. */
function maxDepth(html: string, tag: string): number {
  let depth = 0;
  let max = 0;
  for (const match of html.matchAll(new RegExp(`<(/?)${tag}[\\s>]`, "g"))) {
    depth += match[1] ? -1 : 1;
    max = Math.max(max, depth);
  }
  return max;
}

const AUSTIN: DirectoryLink = {
  path: "/rv-storage/austin-tx",
  title: "RV storage in Austin, TX",
  detail: "12 facilities",
};

describe("renderArticleMarkdown: ordinary Markdown", () => {
  it("renders headings with unique ids, anchors and a contents list", () => {
    const { html, headings } = renderArticleMarkdown(
      ["# Title", "", "## How to store", "", "### Covered *or* open", "", "#### Small print", "", "text"].join("\n"),
    );
    expect(html).toContain(
      '<h2 id="title">Title <a class="heading-anchor" href="#title" aria-label="Link to this section">#</a></h2>',
    );
    expect(html).toContain('<h2 id="how-to-store">How to store <a class="heading-anchor" href="#how-to-store"');
    expect(html).toContain('<h3 id="covered-or-open">Covered <em>or</em> open <a class="heading-anchor"');
    expect(html).toContain("<h4>Small print</h4>");
    expect(html).not.toContain("<h1");
    expect(headings).toEqual([
      { level: 2, id: "title", text: "Title" },
      { level: 2, id: "how-to-store", text: "How to store" },
      { level: 3, id: "covered-or-open", text: "Covered or open" },
    ]);
  });

  it("gives duplicate headings unique ids", () => {
    const { headings, html } = renderArticleMarkdown(
      ["## How to store", "## How to store", "### How to store", "## How to store 2", "## !!!", "## 東京"].join("\n\n"),
    );
    expect(headings.map((heading) => heading.id)).toEqual([
      "how-to-store",
      "how-to-store-2",
      "how-to-store-3",
      "how-to-store-2-2",
      "section",
      "section-2",
    ]);
    expect(new Set(headings.map((heading) => heading.id)).size).toBe(headings.length);
    expect(html).toContain('<h3 id="how-to-store-3">');
  });

  it("slugs ids from ASCII letters, folding accents", () => {
    const { headings } = renderArticleMarkdown("## Coeur d'Alène: Joe's RV — Storage 東京 & more");
    expect(headings[0]?.id).toBe("coeur-dalene-joes-rv-storage-more");
  });

  it("renders lists, code, tables, blockquotes and emphasis", () => {
    const { html } = renderArticleMarkdown(
      [
        "- one",
        "- two",
        "",
        "1. first",
        "2. second",
        "",
        "Some `inline <code>` and **bold**, _em_ and ~~gone~~.",
        "",
        "```js",
        "const a = 1 < 2;",
        "```",
        "",
        "| Size | Price |",
        "| :--- | ----: |",
        "| 30 ft | $90 |",
        "",
        "> Quoted",
        "",
        "---",
      ].join("\n"),
    );
    expect(html).toContain("<ul>\n<li>one</li>\n<li>two</li>\n</ul>");
    expect(html).toContain("<ol>\n<li>first</li>\n<li>second</li>\n</ol>");
    expect(html).toContain(
      "<code>inline &lt;code&gt;</code> and <strong>bold</strong>, <em>em</em> and <del>gone</del>.",
    );
    expect(html).toContain("<pre><code>const a = 1 &lt; 2;\n</code></pre>");
    expect(html).toContain("<table>");
    expect(html).toContain("<th>Size</th>");
    expect(html).toContain("<td>$90</td>");
    expect(html).not.toContain("style=");
    expect(html).toContain("<blockquote>\n<p>Quoted</p>\n</blockquote>");
    expect(html).toContain("<hr />");
  });

  it("applies typography", () => {
    const { html } = renderArticleMarkdown(`"Quoted" -- and ... it's`);
    expect(html).toContain("“Quoted” – and … it’s");
  });

  it("keeps allowed links and marks external ones", () => {
    const { html } = renderArticleMarkdown(
      "[a](https://example.com/x?y=1&z=2) [b](HTTP://example.com) [c](mailto:hi@example.com) [d](/rv-storage) [e](#top)",
    );
    expect(html).toContain('<a href="https://example.com/x?y=1&amp;z=2" rel="noopener noreferrer nofollow">a</a>');
    expect(html).toContain('<a href="http://example.com" rel="noopener noreferrer nofollow">b</a>');
    expect(html).toContain('<a href="mailto:hi@example.com">c</a>');
    expect(html).toContain('<a href="/rv-storage">d</a>');
    expect(html).toContain('<a href="#top">e</a>');
  });

  it("keeps photo-store images, lazily loaded", () => {
    const { html } = renderArticleMarkdown(
      '![A *covered* lot](/blog-images/abc/w960.jpg "title")\n\n![Site](/place-images/ChIJ_x-1/w320n12.webp)',
    );
    expect(html).toContain(
      '<img src="/blog-images/abc/w960.jpg" alt="A covered lot" loading="lazy" decoding="async" />',
    );
    expect(html).toContain(
      '<img src="/place-images/ChIJ_x-1/w320n12.webp" alt="Site" loading="lazy" decoding="async" />',
    );
    expect(html).not.toContain("title=");
  });

  it("counts words and reading time", () => {
    expect(renderArticleMarkdown("")).toMatchObject({ html: "", headings: [], words: 0, readingMinutes: 1 });
    expect(renderArticleMarkdown("one two\nthree *four*five")).toMatchObject({ words: 4, readingMinutes: 1 });
    const long = renderArticleMarkdown(`## Heading\n\n${"word ".repeat(460)}\n\n${"more ".repeat(3)}`);
    expect(long.words).toBe(464);
    expect(long.readingMinutes).toBe(3);
    expect(renderArticleMarkdown("word ".repeat(230)).readingMinutes).toBe(1);
    expect(renderArticleMarkdown("word ".repeat(231)).readingMinutes).toBe(2);
  });
});

describe("renderArticleMarkdown: hostile input", () => {
  it("shows raw HTML as text", () => {
    const { html } = renderArticleMarkdown("<script>alert(1)</script>\n\nhi <script>alert(2)</script>");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("hi &lt;script&gt;alert(2)&lt;/script&gt;");
    expect(html).not.toMatch(/<script/i);
  });

  it("escapes raw image tags with event handlers", () => {
    for (const markdown of [
      "<img src=x onerror=alert(1)>",
      "text <img src=x onerror=alert(1)> more",
      '<a href="javascript:alert(1)" onclick="alert(1)">x</a>',
      "<iframe src=https://evil.example></iframe>",
      "<style>body{display:none}</style>",
    ]) {
      const { html } = renderArticleMarkdown(markdown);
      expect(html).not.toMatch(/<(img|iframe|style|a)\b/i);
      expect(html).not.toMatch(/<[a-z][^>]*\son\w+\s*=/i);
      expect(html).toContain("&lt;");
    }
    expect(renderArticleMarkdown("<img src=x onerror=alert(1)>").html).toBe(
      "<p>&lt;img src=x onerror=alert(1)&gt;</p>\n",
    );
  });

  it.each([
    "javascript:alert(1)",
    "JAVASCRIPT:alert(1)",
    "java&#x09;script:alert(1)",
    "java&#10;script:alert(1)",
    " javascript:alert(1)",
    "&#106;avascript:alert(1)",
    "<javascript:alert(1)>",
    "data:text/html;base64,PHNjcmlwdD4=",
    "vbscript:x",
    "file:///etc/passwd",
    "//evil.example/",
    "relative/page",
    "ftp://example.com/",
  ])("drops the link to %s but keeps its text", (target) => {
    for (const markdown of [`[x](${target})`, `[x][ref]\n\n[ref]: ${target}`, `Read [the text](${target}) now.`]) {
      const { html } = renderArticleMarkdown(markdown);
      expect(html).not.toMatch(/<a\b/i);
      expect(html).not.toMatch(/href="(javascript|data:|vbscript|file:|\/\/|java)/i);
      expect(html).not.toMatch(/=\s*"?\s*(javascript|vbscript|data):/i);
    }
    expect(renderArticleMarkdown(`[x](${target})`).html).toBe("<p>x</p>\n");
    expect(renderArticleMarkdown(`Read [the text](${target}) now.`).html).toBe("<p>Read the text now.</p>\n");
  });

  it("keeps a backslash after the leading slash percent-encoded, so it stays a site path", () => {
    expect(renderArticleMarkdown("[x](/\\evil.example/)").html).toBe('<p><a href="/%5Cevil.example/">x</a></p>\n');
  });

  it("drops autolinks to refused schemes", () => {
    const { html } = renderArticleMarkdown("<javascript:alert(1)> <https://example.com>");
    expect(html).not.toMatch(/href="javascript/i);
    expect(html).toContain('<a href="https://example.com" rel="noopener noreferrer nofollow">https://example.com</a>');
  });

  it.each([
    "https://evil.example/x.png",
    "data:image/png;base64,AAA",
    "javascript:alert(1)",
    "x.png",
    "//evil.example/blog-images/abc/w960.jpg",
    "/blog-images/abc/w961.jpg",
    "/blog-images/abc/w960.gif",
    "/blog-images/a.b/w960.jpg",
    "/blog-images/abc/w960.jpg?x=1",
    "/blog-images/../admin/w960.jpg",
    "/place-images/abc/w320n0.jpg",
    "/place-images/abc/w320n1000.jpg",
    "/place-images/abc/w320.jpg",
    `/blog-images/${"a".repeat(129)}/w960.jpg`,
  ])("drops the image %s and keeps its alt text", (src) => {
    const { html } = renderArticleMarkdown(`Before ![a *b*](${src}) after`);
    expect(html).toBe("<p>Before a b after</p>\n");
    expect(html).not.toMatch(/<img/i);
  });

  it("keeps the alt text of a dropped image that is also a link", () => {
    const { html } = renderArticleMarkdown("[![Lot](https://evil.example/x.png)](/rv-storage/austin-tx)");
    expect(html).toBe('<p><a href="/rv-storage/austin-tx">Lot</a></p>\n');
  });

  it("renders a list nested 5,000 levels deep on one line, capped", () => {
    const { html } = renderArticleMarkdown(`Before\n\n${"- ".repeat(5_000)}x`);
    expect(html).toMatch(/^<p>Before<\/p>\n<ul>/);
    expect(maxDepth(html, "ul")).toBeGreaterThan(1);
    expect(maxDepth(html, "ul")).toBeLessThanOrEqual(MAX_MARKDOWN_NESTING);
  });

  it("renders the deepest indented list that fits the size limit, capped", () => {
    const lines: string[] = [];
    for (let i = 0; i < 440; i++) lines.push("  ".repeat(i) + "- x");
    const markdown = lines.join("\n");
    expect(Buffer.byteLength(markdown)).toBeLessThanOrEqual(ARTICLE_BODY_MAX_BYTES);
    const { html } = renderArticleMarkdown(markdown);
    expect(maxDepth(html, "ul")).toBeGreaterThan(1);
    expect(maxDepth(html, "ul")).toBeLessThanOrEqual(MAX_MARKDOWN_NESTING);
  });

  it("refuses an indented list 5,000 levels deep for its size, and still parses it for links", () => {
    const lines: string[] = [];
    for (let i = 0; i < 5_000; i++) lines.push("  ".repeat(i) + "- x");
    lines.push("[Austin](/rv-storage/austin-tx)");
    const markdown = lines.join("\n");
    expect(() => renderArticleMarkdown(markdown)).toThrow(MarkdownRejectedError);
    expect(() => directoryLinksIn(markdown)).not.toThrow();
  });

  it.each([
    ["[", "[".repeat(100_000)],
    [">", ">".repeat(100_000)],
    ["> ", "> ".repeat(50_000) + "x"],
    ["*", "*".repeat(100_000)],
    ["_a", "_a".repeat(50_000)],
    ["![", "![".repeat(50_000)],
    ["[](", "[](".repeat(33_000)],
    ["[x]", "[x]".repeat(33_000)],
    ["`", "`".repeat(100_000)],
    ["[ ... ]", "[".repeat(50_000) + "]".repeat(50_000)],
    ["* ... * text", "*".repeat(50_000) + "a" + "*".repeat(49_000)],
    ["<", "<".repeat(100_000)],
    ["&#", "&#".repeat(50_000)],
    ["1. ", "1. ".repeat(33_000)],
    ["| ", "|a\n|-\n" + "|".repeat(90_000)],
  ])("renders 100,000 characters of %s", (_name, markdown) => {
    const { html } = renderArticleMarkdown(markdown);
    expect(typeof html).toBe("string");
    expect(maxDepth(html, "ul")).toBeLessThanOrEqual(MAX_MARKDOWN_NESTING);
    expect(maxDepth(html, "blockquote")).toBeLessThanOrEqual(MAX_MARKDOWN_NESTING);
    expect(html).not.toMatch(/<script/i);
  });

  it("refuses a body over the limit, naming its size and the limit", () => {
    const markdown = "x".repeat(5 * 1024 * 1024);
    let error: unknown;
    try {
      renderArticleMarkdown(markdown);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(MarkdownRejectedError);
    expect((error as Error).message).toContain("200 kB");
    expect((error as Error).message).toBe("The article is 5,243 kB; the most is 200 kB. Split it or shorten it.");
  });

  it("counts the limit in UTF-8 bytes", () => {
    expect(() => renderArticleMarkdown("x".repeat(ARTICLE_BODY_MAX_BYTES))).not.toThrow();
    expect(() => renderArticleMarkdown("é".repeat(ARTICLE_BODY_MAX_BYTES / 2 + 1))).toThrow(
      "The article is 201 kB; the most is 200 kB.",
    );
  });
});

describe("directoryLinksIn", () => {
  it("finds links into the directory, once each, in order, without query or hash", () => {
    const markdown = [
      "See [Austin](/rv-storage/austin-tx) and [a lot](/location/some-slug?ref=blog#map).",
      "",
      "[Again](/rv-storage/austin-tx#top), [elsewhere](https://other.example/rv-storage/dallas-tx),",
      "[absolute](https://example.com/location/x), [home](/), [blog](/blog/x), [all](/rv-storage/),",
      "[bad](javascript:/rv-storage/x), ![img](/rv-storage/houston-tx)",
      "",
      "[ref]: /rv-storage/tx",
      "",
      "[By reference][ref]",
    ].join("\n");
    expect(directoryLinksIn(markdown)).toEqual(["/rv-storage/austin-tx", "/location/some-slug", "/rv-storage/tx"]);
  });

  it("finds nothing in plain text", () => {
    expect(directoryLinksIn("Austin is /rv-storage/austin-tx")).toEqual([]);
  });
});

describe("directory cards", () => {
  const resolveLink = (path: string) =>
    path === AUSTIN.path
      ? AUSTIN
      : path === "/location/odd"
        ? { path: "/location/odd", title: `<script>alert("x")</script> & co`, detail: "<b>1</b> place" }
        : undefined;

  it("turns a lone directory link paragraph into a card", () => {
    const { html } = renderArticleMarkdown("Intro\n\n[Austin](/rv-storage/austin-tx?ref=1)\n\nOutro", { resolveLink });
    expect(html).toBe(
      "<p>Intro</p>\n" +
        '<div class="directory-card"><a href="/rv-storage/austin-tx">' +
        '<span class="directory-card-title">RV storage in Austin, TX</span>' +
        '<span class="directory-card-detail">12 facilities</span></a></div>\n' +
        "<p>Outro</p>\n",
    );
  });

  it("makes cards plain boxes, so two of them leave no unnamed landmarks", () => {
    const { html } = renderArticleMarkdown(
      "[Austin](/rv-storage/austin-tx)\n\nAnd\n\n[Austin](/rv-storage/austin-tx)",
      {
        resolveLink,
      },
    );
    expect(html.split('<div class="directory-card">')).toHaveLength(3);
    expect(html).not.toContain("<aside");
  });

  it("escapes the card's title and detail", () => {
    const { html } = renderArticleMarkdown("[Odd](/location/odd)", { resolveLink });
    expect(html).toContain(
      '<span class="directory-card-title">&lt;script&gt;alert("x")&lt;/script&gt; &amp; co</span>' +
        '<span class="directory-card-detail">&lt;b&gt;1&lt;/b&gt; place</span>',
    );
    expect(html).not.toMatch(/<script|<b>/);
  });

  it("keeps the card on the site when the resolver hands back an odd path", () => {
    const { html } = renderArticleMarkdown("[Austin](/rv-storage/austin-tx)", {
      resolveLink: () => ({ ...AUSTIN, path: "javascript:alert(1)" }),
    });
    expect(html).toContain('<div class="directory-card"><a href="/rv-storage/austin-tx">');
    expect(html).not.toMatch(/javascript/i);
  });

  it("keeps inline, unresolved and list links as ordinary links", () => {
    const inline = renderArticleMarkdown("Try [Austin](/rv-storage/austin-tx) first.", { resolveLink }).html;
    expect(inline).toBe('<p>Try <a href="/rv-storage/austin-tx">Austin</a> first.</p>\n');
    const unresolved = renderArticleMarkdown("[Dallas](/rv-storage/dallas-tx)", { resolveLink }).html;
    expect(unresolved).toBe('<p><a href="/rv-storage/dallas-tx">Dallas</a></p>\n');
    const withoutResolver = renderArticleMarkdown("[Austin](/rv-storage/austin-tx)").html;
    expect(withoutResolver).toBe('<p><a href="/rv-storage/austin-tx">Austin</a></p>\n');
    const twoLinks = renderArticleMarkdown("[Austin](/rv-storage/austin-tx) [Austin](/rv-storage/austin-tx)", {
      resolveLink,
    }).html;
    expect(twoLinks).not.toContain("directory-card");
    const listed = renderArticleMarkdown("- [Austin](/rv-storage/austin-tx)", { resolveLink }).html;
    expect(listed).toBe('<ul>\n<li><a href="/rv-storage/austin-tx">Austin</a></li>\n</ul>\n');
  });
});
