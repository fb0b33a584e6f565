import type { MetaDescriptor } from "react-router";
import { SITE_DESCRIPTION, SITE_NAME, pageTitle } from "../../domain/site";

export interface SeoInput {
  title?: string;
  description?: string;
  /** Absolute site origin, e.g. https://example.com (from the root loader). */
  origin: string;
  /** Path of the canonical URL, e.g. /rv-storage/austin-tx */
  path: string;
  image?: string;
  type?: "website" | "article" | "business.business";
}

/** Title, description, canonical, Open Graph and Twitter tags, the same way on every page. */
export function seo({
  title,
  description = SITE_DESCRIPTION,
  origin,
  path,
  image,
  type = "website",
}: SeoInput): MetaDescriptor[] {
  const fullTitle = pageTitle(title);
  // The path is the request's ("///" reaches the home page): leading slashes collapse to one, or
  // the URL parser would read "//x" as another host (and throw on "//").
  const url = new URL(path.replace(/^\/+/, "/"), origin).toString();
  const tags: MetaDescriptor[] = [
    { title: fullTitle },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:site_name", content: SITE_NAME },
    { property: "og:type", content: type },
    { property: "og:title", content: fullTitle },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    { name: "twitter:card", content: image ? "summary_large_image" : "summary" },
    { name: "twitter:title", content: fullTitle },
    { name: "twitter:description", content: description },
  ];
  if (image) {
    const imageUrl = new URL(image, origin).toString();
    tags.push({ property: "og:image", content: imageUrl }, { name: "twitter:image", content: imageUrl });
  }
  return tags;
}

/** The site origin the root loader exposes, for meta functions. */
export function originFrom(matches: readonly ({ id: string; data?: unknown } | undefined)[]): string {
  const root = matches.find((m) => m?.id === "root")?.data as { origin?: string } | undefined;
  return root?.origin ?? "http://localhost:3000";
}

/**
 * The tags of a page search engines must not list (the consoles): the title and canonical of
 * `seo`, plus `noindex`. Pass the meta function's own arguments.
 */
export function privatePageMeta(
  title: string,
  { matches, location }: { matches: Parameters<typeof originFrom>[0]; location: { pathname: string } },
): MetaDescriptor[] {
  return [
    ...seo({ title, origin: originFrom(matches), path: location.pathname }),
    { name: "robots", content: "noindex" },
  ];
}
