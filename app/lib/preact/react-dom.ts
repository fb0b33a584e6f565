/**
 * `react-dom` in the browser build: Preact's compat layer plus React DOM's `preload`, which
 * preact/compat lacks (docs/decisions/024-preact-in-the-browser.md). Only vite.config.ts points
 * at this module; the server renders with React DOM itself, whose `preload` puts the hint in the
 * streamed <head>. Here it only matters after a client navigation: the hint is appended to
 * <head> once per URL, as React DOM does.
 */
// @ts-expect-error -- preact/compat's types say `export =`; the module itself is ESM.
export * from "preact/compat";
export { default } from "preact/compat";

interface PreloadOptions {
  as: string;
  type?: string;
  imageSrcSet?: string;
  imageSizes?: string;
  fetchPriority?: "high" | "low" | "auto";
  crossOrigin?: string;
}

const preloaded = new Set<string>();

export function preload(href: string, options: PreloadOptions): void {
  if (typeof document === "undefined") return;
  const key = options.imageSrcSet ?? href;
  if (preloaded.has(key)) return;
  preloaded.add(key);
  // The server's own hint for this image, if the page was rendered with it (React DOM leaves out
  // the href of an image preload that has a srcset).
  for (const link of document.head.querySelectorAll('link[rel="preload"]')) {
    if (link.getAttribute("href") === href) return;
    if (options.imageSrcSet && link.getAttribute("imagesrcset") === options.imageSrcSet) return;
  }
  const link = document.createElement("link");
  link.rel = "preload";
  link.as = options.as;
  link.href = href;
  if (options.type) link.type = options.type;
  if (options.imageSrcSet) link.imageSrcset = options.imageSrcSet;
  if (options.imageSizes) link.imageSizes = options.imageSizes;
  if (options.fetchPriority) link.fetchPriority = options.fetchPriority;
  if (options.crossOrigin !== undefined) link.crossOrigin = options.crossOrigin;
  document.head.appendChild(link);
}
