/**
 * The server-side renderer for articles written in Markdown (docs/product.md section 13,
 * "Articles"). An admin writes the body; this turns it into HTML that is safe to put on a public
 * page, with the extras the article page needs: heading ids and anchors for the table of contents,
 * cards for links into the directory, a word count and a reading time.
 *
 * The layers, each enough on its own for the worst cases:
 * 1. markdown-it with raw HTML off: `<script>` in the Markdown is text, never markup.
 * 2. A token pass (before rendering) that keeps only allowed link targets and photo-store images.
 * 3. sanitize-html over the final HTML with a strict allowlist, the last line of defence.
 *
 * Everything is linear in the size of the body: markdown-it's own `maxNesting` cuts off deeper
 * structure, every pass here walks the tokens once, and no pattern used on user text has nested
 * quantifiers.
 */
import { ARTICLE_BODY_MAX_BYTES } from "../../domain/articles";
import MarkdownIt, { type Token } from "markdown-it";
import sanitizeHtml from "sanitize-html";

/** The most a body may weigh, in UTF-8 bytes of Markdown (docs/product.md section 13, "Articles"). */
export { ARTICLE_BODY_MAX_BYTES };
/**
 * How deep blocks (lists, quotes) and inline markup may nest. markdown-it does not go deeper: a
 * too-deep inline run stays plain text, and at a too-deep block it drops the rest of the body.
 */
export const MAX_MARKDOWN_NESTING = 20;
/** Words a minute for the reading time. */
const WORDS_PER_MINUTE = 230;
/** Heading ids are cut to this many characters (whole ids stay unique after the cut). */
const HEADING_ID_MAX = 80;

/** A page of the directory that a lone link in an article turns into a card. */
export interface DirectoryLink {
  path: string;
  title: string;
  detail: string;
}

export interface RenderOptions {
  /** The directory page behind a path (`/rv-storage/austin-tx`), or undefined when there is none. */
  resolveLink?: (path: string) => DirectoryLink | undefined;
}

export interface ArticleHeading {
  level: 2 | 3;
  id: string;
  text: string;
}

export interface RenderedArticle {
  /** Sanitized HTML. */
  html: string;
  /** The h2 and h3 headings in order, for a table of contents. */
  headings: ArticleHeading[];
  words: number;
  /** ceil(words / 230), at least 1. */
  readingMinutes: number;
}

/** The body cannot be rendered; the message is shown to the admin as is. */
export class MarkdownRejectedError extends Error {
  override name = "MarkdownRejectedError";
}

// ---------------------------------------------------------------------------------------------
// Links and images (docs/product.md section 13, "Articles")
// ---------------------------------------------------------------------------------------------

const EXTERNAL_SCHEMES = ["http://", "https://"];
const REL_EXTERNAL = "noopener noreferrer nofollow";

/**
 * The href to keep for a link target, or null when the link must go. Allowed: http(s) and mailto
 * URLs, site-relative paths (one leading `/`; `//host` and `/\host` reach other hosts) and
 * `#fragment`s. Everything else, whatever its spelling (`javascript:`, `JAVASCRIPT:`, `data:`,
 * `java&#x09;script:` which markdown-it hands over as `java%09script:`...), is not on the list.
 */
function allowedHref(href: string): string | null {
  const head = href.slice(0, 8).toLowerCase();
  for (const scheme of [...EXTERNAL_SCHEMES, "mailto:"]) {
    if (head.startsWith(scheme)) return scheme + href.slice(scheme.length);
  }
  if (href.startsWith("/")) return href[1] === "/" || href[1] === "\\" ? null : href;
  if (href.startsWith("#")) return href;
  return null;
}

function isExternal(href: string): boolean {
  return EXTERNAL_SCHEMES.some((scheme) => href.startsWith(scheme));
}

/** The site's own photo store: the only images an article may show. Anchored, no nested quantifiers. */
const BLOG_IMAGE = /^\/blog-images\/[A-Za-z0-9_-]{1,128}\/w(?:320|640|960|1280)\.(?:avif|webp|jpg)$/;
const PLACE_IMAGE = /^\/place-images\/[A-Za-z0-9_-]{1,128}\/w(?:320|640|960|1280)n[1-9][0-9]{0,2}\.(?:avif|webp|jpg)$/;

function isPhotoStoreImage(src: string): boolean {
  return src.length <= 300 && (BLOG_IMAGE.test(src) || PLACE_IMAGE.test(src));
}

const DIRECTORY_PREFIXES = ["/rv-storage/", "/location/"];

/** The path of a link into the directory, query and hash dropped; undefined for any other link. */
function directoryPath(href: string): string | undefined {
  let end = href.length;
  const query = href.indexOf("?");
  const hash = href.indexOf("#");
  if (query !== -1) end = query;
  if (hash !== -1 && hash < end) end = hash;
  const path = href.slice(0, end);
  return DIRECTORY_PREFIXES.some((prefix) => path.startsWith(prefix) && path.length > prefix.length) ? path : undefined;
}

/** The text a reader sees in inline tokens (an image counts as its alt text). */
function plainText(tokens: readonly Token[]): string {
  let text = "";
  for (const token of tokens) {
    if (token.type === "text" || token.type === "code_inline") text += token.content;
    else if (token.type === "softbreak" || token.type === "hardbreak") text += " ";
    else if (token.type === "image") text += plainText(token.children ?? []);
  }
  return text;
}

/**
 * Applies the link and image rules to one run of inline tokens: a link with a target off the list
 * loses its `<a>` but keeps its text; an image from anywhere but the photo store becomes its alt
 * text. Titles are dropped (the sanitizer would drop them anyway).
 */
function applyLinkPolicy(children: Token[], TokenClass: typeof MarkdownIt.Token): Token[] {
  const kept: Token[] = [];
  const dropped: boolean[] = [];
  for (const token of children) {
    if (token.type === "link_open") {
      const href = allowedHref(String(token.attrGet("href") ?? ""));
      dropped.push(href === null);
      if (href === null) continue;
      token.attrs = [["href", href]];
      if (isExternal(href)) token.attrSet("rel", REL_EXTERNAL);
      kept.push(token);
    } else if (token.type === "link_close") {
      if (dropped.pop() !== true) kept.push(token);
    } else if (token.type === "image") {
      const src = String(token.attrGet("src") ?? "");
      if (isPhotoStoreImage(src)) {
        // The renderer fills `alt` from the image's children.
        token.attrs = [
          ["src", src],
          ["alt", ""],
          ["loading", "lazy"],
          ["decoding", "async"],
        ];
        kept.push(token);
      } else {
        const alt = new TokenClass("text", "", 0);
        alt.content = plainText(token.children ?? []);
        if (alt.content) kept.push(alt);
      }
    } else {
      // markdown-it writes ~~strikethrough~~ as <s>; the allowlist has <del>.
      if (token.type === "s_open" || token.type === "s_close") token.tag = "del";
      kept.push(token);
    }
  }
  return kept;
}

// ---------------------------------------------------------------------------------------------
// The parser
// ---------------------------------------------------------------------------------------------

const md = new MarkdownIt({
  html: false,
  linkify: false,
  typographer: true,
  maxNesting: MAX_MARKDOWN_NESTING,
});
// markdown-it's own check leaves a refused link as raw Markdown (`[x](javascript:...)` shown as
// typed); the link policy above decides instead, so a refused link keeps just its text.
md.validateLink = () => true;
md.core.ruler.push("article_link_policy", (state) => {
  for (const token of state.tokens) {
    if (token.type === "inline" && token.children) token.children = applyLinkPolicy(token.children, state.Token);
  }
  return true;
});
// A plain box, not an <aside>: an article may hold several cards, and unnamed complementary
// landmarks would each be announced alike (docs/product.md section 13, "Markdown and safety").
md.renderer.rules.directory_card = (tokens, idx) => {
  const link = tokens[idx]?.meta?.link as DirectoryLink;
  const escape = md.utils.escapeHtml;
  return (
    `<div class="directory-card"><a href="${escape(link.path)}">` +
    `<span class="directory-card-title">${escape(link.title)}</span>` +
    `<span class="directory-card-detail">${escape(link.detail)}</span></a></div>\n`
  );
};

// ---------------------------------------------------------------------------------------------
// The sanitizer (docs/product.md section 13, "Articles")
// ---------------------------------------------------------------------------------------------

const SANITIZE_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    "p",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "ul",
    "ol",
    "li",
    "blockquote",
    "pre",
    "code",
    "em",
    "strong",
    "del",
    "a",
    "img",
    "hr",
    "br",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "aside",
    "div",
    "span",
  ],
  allowedAttributes: {
    a: ["href", "rel", "aria-label"],
    img: ["src", "alt", "loading", "decoding"],
    h2: ["id"],
    h3: ["id"],
    h4: ["id"],
  },
  // Implies the class attribute on these tags only, limited to these names.
  allowedClasses: {
    a: ["heading-anchor"],
    aside: ["directory-card"],
    div: ["directory-card"],
    span: ["directory-card-title", "directory-card-detail"],
  },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesByTag: {},
  allowedSchemesAppliedToAttributes: ["href", "src"],
  allowProtocolRelative: false,
  allowedIframeHostnames: [],
  allowedScriptHostnames: [],
  allowedScriptDomains: [],
  disallowedTagsMode: "discard",
  // Block and inline nesting are each capped by markdown-it; this only backs that up.
  nestingLimit: 2 * MAX_MARKDOWN_NESTING + 4,
  // The same link and image rules again, on the HTML: a refused link keeps its text.
  exclusiveFilter: (frame) => {
    if (frame.tag === "img") return !isPhotoStoreImage(frame.attribs.src ?? "");
    if (frame.tag === "a") return allowedHref(frame.attribs.href ?? "") === null ? "excludeTag" : false;
    return false;
  },
};

// ---------------------------------------------------------------------------------------------
// Headings, cards, words
// ---------------------------------------------------------------------------------------------

/**
 * "How to store" -> "how-to-store": accents folded ("Alène" -> "alene"), apostrophes and other
 * non-ASCII letters removed, anything else between words one dash; "section" when nothing is left.
 */
function slugify(text: string): string {
  const ascii = text
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[\p{M}'\u2019]|[^\P{L}a-z]/gu, "")
    .replace(/[^a-z0-9]+/g, "-");
  let start = 0;
  let end = Math.min(ascii.length, HEADING_ID_MAX + 1);
  while (start < end && ascii[start] === "-") start++;
  if (end - start > HEADING_ID_MAX) end = start + HEADING_ID_MAX;
  while (end > start && ascii[end - 1] === "-") end--;
  return ascii.slice(start, end) || "section";
}

/** Hands out ids: `how-to-store`, then `how-to-store-2`, never one already used. */
function idAllocator(): (base: string) => string {
  const used = new Set<string>();
  const next = new Map<string, number>();
  return (base) => {
    let id = base;
    if (used.has(id)) {
      let n = next.get(base) ?? 2;
      while (used.has(`${base}-${n}`)) n++;
      id = `${base}-${n}`;
      next.set(base, n + 1);
    }
    used.add(id);
    return id;
  };
}

function countWords(text: string): number {
  let words = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const space = code === 32 || (code >= 9 && code <= 13) || code === 160 || code === 0x2028 || code === 0x2029;
    if (!space && !inWord) words++;
    inWord = !space;
  }
  return words;
}

function wordsIn(tokens: readonly Token[]): number {
  let words = 0;
  for (const token of tokens) {
    if (token.type === "inline") words += countWords(plainText(token.children ?? []));
    else if (token.type === "fence" || token.type === "code_block") words += countWords(token.content);
  }
  return words;
}

/** h1 becomes h2 (the page has its own h1); h2 and h3 get unique ids, anchors and a contents entry. */
function decorateHeadings(tokens: Token[], TokenClass: typeof MarkdownIt.Token): ArticleHeading[] {
  const headings: ArticleHeading[] = [];
  const allocate = idAllocator();
  for (let i = 0; i < tokens.length; i++) {
    const open = tokens[i]!;
    if (open.type !== "heading_open") continue;
    const inline = tokens[i + 1];
    const close = tokens[i + 2];
    if (open.tag === "h1") {
      open.tag = "h2";
      if (close?.type === "heading_close") close.tag = "h2";
    }
    if (open.tag !== "h2" && open.tag !== "h3") continue;
    const children = inline?.type === "inline" ? (inline.children ??= []) : undefined;
    const text = plainText(children ?? []).trim();
    const id = allocate(slugify(text));
    open.attrSet("id", id);
    headings.push({ level: open.tag === "h2" ? 2 : 3, id, text });
    if (!children) continue;
    const space = new TokenClass("text", "", 0);
    space.content = " ";
    const anchorOpen = new TokenClass("link_open", "a", 1);
    anchorOpen.attrs = [
      ["class", "heading-anchor"],
      ["href", `#${id}`],
      ["aria-label", "Link to this section"],
    ];
    const mark = new TokenClass("text", "", 0);
    mark.content = "#";
    const anchorClose = new TokenClass("link_close", "a", -1);
    children.push(space, anchorOpen, mark, anchorClose);
  }
  return headings;
}

/** The directory link a paragraph consists of, alone; undefined when it has anything else. */
function loneDirectoryLink(children: readonly Token[]): string | undefined {
  const content = children.filter((token) => !(token.type === "text" && token.content.trim() === ""));
  const first = content[0];
  const last = content[content.length - 1];
  if (content.length < 2 || first?.type !== "link_open" || last?.type !== "link_close") return undefined;
  for (let i = 1; i < content.length - 1; i++) if (content[i]!.type.startsWith("link_")) return undefined;
  return directoryPath(String(first.attrGet("href") ?? ""));
}

function isSitePath(path: string): boolean {
  return path.startsWith("/") && allowedHref(path) !== null;
}

/** A paragraph that is one link to a directory page the caller knows becomes that page's card. */
function directoryCards(
  tokens: Token[],
  TokenClass: typeof MarkdownIt.Token,
  resolveLink: RenderOptions["resolveLink"],
): Token[] {
  if (!resolveLink) return tokens;
  const out: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const open = tokens[i]!;
    const inline = tokens[i + 1];
    const close = tokens[i + 2];
    if (
      open.type === "paragraph_open" &&
      !open.hidden &&
      inline?.type === "inline" &&
      close?.type === "paragraph_close"
    ) {
      const path = loneDirectoryLink(inline.children ?? []);
      const resolved = path === undefined ? undefined : resolveLink(path);
      if (path !== undefined && resolved) {
        const card = new TokenClass("directory_card", "div", 0);
        card.block = true;
        card.meta = {
          link: { ...resolved, path: isSitePath(resolved.path) ? resolved.path : path } satisfies DirectoryLink,
        };
        out.push(card);
        i += 2;
        continue;
      }
    }
    out.push(open);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The API
// ---------------------------------------------------------------------------------------------

function formatKilobytes(bytes: number): string {
  return `${Math.ceil(bytes / 1000).toLocaleString("en-US")} kB`;
}

/** Paths of links into the directory (`/rv-storage/...` or `/location/...`, query and hash dropped), deduplicated, in order. */
export function directoryLinksIn(markdown: string): string[] {
  const paths = new Set<string>();
  for (const token of md.parse(markdown, {})) {
    if (token.type !== "inline") continue;
    for (const child of token.children ?? []) {
      if (child.type !== "link_open") continue;
      const path = directoryPath(String(child.attrGet("href") ?? ""));
      if (path !== undefined) paths.add(path);
    }
  }
  return [...paths];
}

/** The message for a body over ARTICLE_BODY_MAX_BYTES, or null when it fits. */
export function bodySizeProblem(markdown: string): string | null {
  const bytes = Buffer.byteLength(markdown, "utf8");
  if (bytes <= ARTICLE_BODY_MAX_BYTES) return null;
  return `The article is ${formatKilobytes(bytes)}; the most is ${formatKilobytes(ARTICLE_BODY_MAX_BYTES)}. Split it or shorten it.`;
}

/**
 * Renders an article body to sanitized HTML with its headings, word count and reading time.
 * Throws MarkdownRejectedError when the body is over ARTICLE_BODY_MAX_BYTES.
 */
export function renderArticleMarkdown(markdown: string, options: RenderOptions = {}): RenderedArticle {
  const tooLarge = bodySizeProblem(markdown);
  if (tooLarge) throw new MarkdownRejectedError(tooLarge);
  const env = {};
  const parsed = md.parse(markdown, env);
  const words = wordsIn(parsed);
  const headings = decorateHeadings(parsed, MarkdownIt.Token);
  const tokens = directoryCards(parsed, MarkdownIt.Token, options.resolveLink);
  const html = sanitizeHtml(md.renderer.render(tokens, md.options, env), SANITIZE_OPTIONS);
  return { html, headings, words, readingMinutes: Math.max(1, Math.ceil(words / WORDS_PER_MINUTE)) };
}
