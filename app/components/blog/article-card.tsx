import { Link } from "react-router";
import { articlePath, tagLabel, type ArticleCardData } from "../../../domain/articles";
import { ArticleCover } from "./article-cover";

/** One article in a list: cover, title (the link), excerpt, date and reading time, tags. */
export function ArticleCard({
  article,
  priority = false,
  headingLevel = 2,
}: {
  article: ArticleCardData;
  priority?: boolean;
  /** 3 where the list sits under a section heading of its own. */
  headingLevel?: 2 | 3;
}) {
  const Heading = headingLevel === 3 ? "h3" : "h2";
  return (
    <article className="flex flex-col overflow-hidden rounded-card border border-slate-200 bg-white shadow-sm">
      {article.coverImageId && article.coverWidth && article.coverHeight ? (
        <ArticleCover
          imageId={article.coverImageId}
          alt=""
          width={article.coverWidth}
          height={article.coverHeight}
          sizes="(min-width: 1024px) 400px, (min-width: 640px) 50vw, 100vw"
          priority={priority}
          className="aspect-[16/9]"
        />
      ) : (
        <div aria-hidden="true" className="aspect-[16/9] bg-gradient-to-br from-brand-100 to-slate-100" />
      )}
      <div className="flex flex-1 flex-col p-4">
        <Heading className="text-lg leading-snug font-semibold text-slate-900">
          <Link to={articlePath(article.slug)} className="hover:underline">
            {article.title}
          </Link>
        </Heading>
        <p className="mt-1 text-sm text-slate-600">
          <time dateTime={article.publishedIso}>{article.published}</time> · {article.readingMinutes} min read
          {article.isDemo ? " · Demo article" : ""}
        </p>
        {article.excerpt && <p className="mt-2 flex-1 text-slate-700">{article.excerpt}</p>}
        <TagList tags={article.tags} className="mt-3" />
      </div>
    </article>
  );
}

/** An article's tags, each a link to the list of that tag; nothing when it has none. */
export function TagList({ tags, className = "" }: { tags: readonly string[]; className?: string }) {
  if (tags.length === 0) return null;
  return (
    <ul className={`flex flex-wrap gap-1.5 ${className}`} aria-label="Tags">
      {tags.map((tag) => (
        <li key={tag}>
          <Link
            to={`/blog?tag=${encodeURIComponent(tag)}`}
            className="inline-flex min-h-8 items-center rounded-full bg-slate-100 px-3 text-sm text-slate-700 hover:bg-slate-200"
          >
            {tagLabel(tag)}
          </Link>
        </li>
      ))}
    </ul>
  );
}
