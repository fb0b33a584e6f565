import Newspaper from "lucide-react/icons/newspaper";
import { Link } from "react-router";
import type { Route } from "./+types/blog";
import { ArticleCard } from "../components/blog/article-card";
import { Pagination } from "../components/search/pagination";
import { tagLabel } from "../../domain/articles";
import { originFrom, seo } from "../lib/meta";
import { SITE_NAME } from "../../domain/site";
import { blogListPage } from "../../server/blog/pages";

export async function loader({ request }: Route.LoaderArgs) {
  return blogListPage(request);
}

export function meta({ data, matches }: Route.MetaArgs) {
  const origin = originFrom(matches);
  const tag = data?.tag ? tagLabel(data.tag) : null;
  const params = new URLSearchParams();
  if (data?.tag) params.set("tag", data.tag);
  if (data && data.page > 1) params.set("page", String(data.page));
  const query = params.toString();
  return [
    ...seo({
      title: tag ? `${tag}: RV storage articles` : "Articles on storing your RV",
      description: `Guides from ${SITE_NAME}: winter storage, covered or open spaces, security and what to ask a facility before you store your RV.`,
      origin,
      path: `/blog${query ? `?${query}` : ""}`,
    }),
    {
      tagName: "link",
      rel: "alternate",
      type: "application/rss+xml",
      title: `${SITE_NAME} articles`,
      href: "/blog/rss.xml",
    },
  ];
}

/** /blog: the articles, newest first, 12 a page, with tags as filters (docs/product.md section 13). */
export default function Blog({ loaderData }: Route.ComponentProps) {
  const { articles, tags, tag, page, pageCount, pageSize, total } = loaderData;
  const hrefFor = (p: number) => {
    const params = new URLSearchParams();
    if (tag) params.set("tag", tag);
    if (p > 1) params.set("page", String(p));
    const query = params.toString();
    return `/blog${query ? `?${query}` : ""}`;
  };
  const chip = "inline-flex min-h-10 items-center rounded-full border px-4 text-sm font-medium";
  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">
        {tag ? `Articles about ${tagLabel(tag).toLowerCase()}` : "Articles"}
      </h1>
      <p className="mt-2 max-w-2xl text-lg text-slate-700">
        How to store an RV well: getting it ready, choosing a space, and what to ask a facility.
      </p>
      {tags.length > 0 && (
        <nav aria-label="Tags" className="mt-6">
          <ul className="flex flex-wrap gap-2">
            <li>
              <Link
                to="/blog"
                aria-current={tag === null ? "page" : undefined}
                className={`${chip} ${tag === null ? "border-brand-500 bg-brand-500 text-white" : "border-slate-300 text-slate-700 hover:bg-slate-50"}`}
              >
                All
              </Link>
            </li>
            {tags.map((t) => (
              <li key={t.tag}>
                <Link
                  to={`/blog?tag=${encodeURIComponent(t.tag)}`}
                  aria-current={tag === t.tag ? "page" : undefined}
                  className={`${chip} ${tag === t.tag ? "border-brand-500 bg-brand-500 text-white" : "border-slate-300 text-slate-700 hover:bg-slate-50"}`}
                >
                  {tagLabel(t.tag)} <span className="sr-only">({t.count} articles)</span>
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      )}
      {articles.length === 0 ? (
        <div className="mt-10 flex flex-col items-center rounded-card border border-dashed border-slate-300 px-6 py-16 text-center">
          <Newspaper aria-hidden="true" className="size-10 text-slate-400" />
          <h2 className="mt-4 text-xl font-semibold text-slate-900">
            {tag ? `No articles about ${tagLabel(tag).toLowerCase()} yet` : "No articles yet"}
          </h2>
          <p className="mt-2 max-w-md text-slate-600">
            {tag ? "Try another tag, or read all the articles." : "New guides appear here when they are published."}
          </p>
          {tag ? (
            <Link to="/blog" className="mt-4 font-medium text-brand-700 underline">
              All articles
            </Link>
          ) : (
            <Link to="/" className="mt-4 font-medium text-brand-700 underline">
              Find RV storage instead
            </Link>
          )}
        </div>
      ) : (
        <ul className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {articles.map((a, i) => (
            <li key={a.slug} className="flex">
              <ArticleCard article={a} priority={i === 0 && page === 1} />
            </li>
          ))}
        </ul>
      )}
      <Pagination
        page={page}
        pageCount={pageCount}
        pageSize={pageSize}
        total={total}
        hrefFor={hrefFor}
        noun="articles"
      />
    </div>
  );
}
