import { Link } from "react-router";
import type { Route } from "./+types/blog-post";
import { ArticleCard, TagList } from "../components/blog/article-card";
import { ArticleCover } from "../components/blog/article-cover";
import { buttonClasses } from "../components/ui/button";
import { articlePath, blogImageUrl, tagLabel } from "../../domain/articles";
import { originFrom, seo } from "../lib/meta";
import { SITE_NAME } from "../../domain/site";
import { articleJsonLd, breadcrumbJsonLd } from "../lib/structured-data";
import { blogArticlePage } from "../../server/blog/pages";
import { siteOrigin } from "../../server/http/origin";

type ArticleData = Awaited<ReturnType<typeof blogArticlePage>>["article"];

/** What the meta tags and the structured data say of an article. */
function described(a: ArticleData): { description: string; image?: string } {
  return {
    description: a.seoDescription || a.excerpt || `${a.title}: an article from ${SITE_NAME}.`,
    image: a.coverImageId ? blogImageUrl(a.coverImageId, 1280, "jpg") : undefined,
  };
}

export async function loader({ params, request }: Route.LoaderArgs) {
  const page = await blogArticlePage(params.slug);
  // The structured data is built here, so its builders stay on the server: an article runs no
  // script of its own (docs/decisions/027-page-weight-by-design.md).
  const a = page.article;
  const origin = siteOrigin(request);
  const url = new URL(articlePath(a.slug), origin).toString();
  const { description, image } = described(a);
  const jsonLd = [
    articleJsonLd({
      url,
      headline: a.title,
      description,
      image: image ? new URL(image, origin).toString() : undefined,
      datePublished: a.publishedIso,
      dateModified: a.updatedIso,
      authorName: a.authorName,
      publisherName: SITE_NAME,
      publisherUrl: new URL("/", origin).toString(),
    }),
    breadcrumbJsonLd([
      { name: "Home", url: new URL("/", origin).toString() },
      { name: "Articles", url: new URL("/blog", origin).toString() },
      { name: a.title, url },
    ]),
  ];
  return { ...page, jsonLd };
}

export function meta({ data, matches }: Route.MetaArgs) {
  const a = data?.article;
  if (!a) return [{ title: "Article not found" }, { name: "robots", content: "noindex" }];
  const origin = originFrom(matches);
  const { description, image } = described(a);
  return [
    ...seo({ title: a.seoTitle || a.title, description, origin, path: articlePath(a.slug), image, type: "article" }),
    { property: "article:published_time", content: a.publishedIso },
    { property: "article:modified_time", content: a.updatedIso },
    ...a.tags.map((tag) => ({ property: "article:tag", content: tagLabel(tag) })),
    ...data.jsonLd.map((item) => ({ "script:ld+json": item })),
  ];
}

/**
 * /blog/{slug} (docs/product.md section 13): the article as the server rendered and sanitized it
 * at its last save, with its table of contents, dates, tags and related articles. No script of
 * its own beyond the framework's.
 */
export default function BlogPost({ loaderData }: Route.ComponentProps) {
  const { article: a, related } = loaderData;
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-600">
        <ol className="flex flex-wrap gap-1">
          <li>
            <Link to="/" className="hover:underline">
              Home
            </Link>{" "}
            /
          </li>
          <li>
            <Link to="/blog" className="hover:underline">
              Articles
            </Link>
          </li>
        </ol>
      </nav>
      <article className="mt-4">
        <header>
          <h1 className="text-3xl font-bold tracking-tight text-balance text-slate-900 sm:text-4xl">{a.title}</h1>
          {a.excerpt && <p className="mt-3 text-xl text-slate-700">{a.excerpt}</p>}
          <p className="mt-4 text-sm text-slate-600">
            {a.authorName ? <>By {a.authorName} · </> : null}
            Published <time dateTime={a.publishedIso}>{a.published}</time>
            {a.updated ? (
              <>
                {" "}
                · Updated <time dateTime={a.updatedIso}>{a.updated}</time>
              </>
            ) : null}{" "}
            · {a.readingMinutes} min read
            {a.isDemo ? " · Demo article" : ""}
          </p>
          <TagList tags={a.tags} className="mt-3" />
        </header>
        {a.coverImageId && a.coverWidth && a.coverHeight ? (
          <div className="mt-6 overflow-hidden rounded-card">
            <ArticleCover
              imageId={a.coverImageId}
              alt={a.coverAlt}
              width={a.coverWidth}
              height={a.coverHeight}
              sizes="(min-width: 768px) 736px, 100vw"
              priority
            />
          </div>
        ) : null}
        {a.showToc && (
          <nav aria-labelledby="toc-h" className="mt-8 rounded-card border border-slate-200 bg-slate-50 p-4">
            <h2 id="toc-h" className="text-base font-semibold text-slate-900">
              In this article
            </h2>
            <ol className="mt-2 space-y-1">
              {a.headings.map((h) => (
                <li key={h.id} className={h.level === 3 ? "pl-4" : undefined}>
                  <a href={`#${h.id}`} className="text-brand-700 hover:underline">
                    {h.text}
                  </a>
                </li>
              ))}
            </ol>
          </nav>
        )}
        {/* Sanitized on the server when the article was saved (server/blog/markdown.ts). */}
        <div className="article-body mt-8" dangerouslySetInnerHTML={{ __html: a.html }} />
      </article>
      <aside aria-labelledby="find-h" className="mt-12 rounded-card bg-brand-50 p-6">
        <h2 id="find-h" className="text-xl font-semibold text-slate-900">
          Looking for RV storage?
        </h2>
        <p className="mt-1 text-slate-700">Compare facilities near you by size, security and amenities.</p>
        {/* A shade darker than the primary button's, on the aside's brand-50. */}
        <Link to="/" className={buttonClasses("primary", "md", "mt-3 min-h-10 py-0 bg-brand-600 hover:bg-brand-700")}>
          Find RV storage
        </Link>
      </aside>
      {related.length > 0 && (
        <section aria-labelledby="related-h" className="mt-12">
          <h2 id="related-h" className="text-2xl font-bold text-slate-900">
            Related articles
          </h2>
          <ul className="mt-4 grid gap-6 sm:grid-cols-2">
            {related.map((r) => (
              <li key={r.slug} className="flex">
                <ArticleCard article={r} headingLevel={3} />
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
