/**
 * `react-dom/client` in the browser build (docs/decisions/024-preact-in-the-browser.md): Preact's
 * createRoot and hydrateRoot, with four fixes for React Router's `hydrateRoot(document, ...)`
 * of a page that React DOM rendered on the server. Only vite.config.ts points at this module.
 */
import { Fragment, options, type VNode } from "preact";
import { hydrate } from "preact/compat";
import { createRoot } from "preact/compat/client";
import type { ReactNode } from "react";
import { hydration } from "./hydrating";

export { createRoot };

/**
 * Preact renders into `document.documentElement` when given the document, so the root layout's
 * <html> would become a second <html> inside the first, with a copy of the whole page. In the
 * document's tree <html> is a fragment instead: its <head> and <body> hydrate the real ones. The
 * attributes of <html> (lang) stay as the server wrote them.
 */
function htmlAsFragment(): void {
  const previous = options.vnode;
  options.vnode = (vnode: VNode) => {
    if (vnode.type === "html") vnode.type = Fragment;
    previous?.(vnode);
  };
}

/** Attributes that hold an element id, or a list of them. */
const ID_ATTRIBUTES = [
  "id",
  "for",
  "aria-labelledby",
  "aria-describedby",
  "aria-controls",
  "aria-owns",
  "aria-activedescendant",
  "aria-errormessage",
  "aria-details",
  "list",
  "headers",
] as const;

/**
 * Preact's hydration adopts the server's nodes without touching their attributes, and useId
 * gives other ids than React DOM's: a label kept the server's `for` while its input, rendered
 * again after a navigation, took Preact's id, and the label named nothing. While hydrating, each
 * element takes the ids its props name, so that every id in the page is Preact's.
 */
function adoptIdsWhileHydrating(): void {
  const previous = options.diffed;
  options.diffed = (vnode: VNode) => {
    if (hydration.active && typeof vnode.type === "string") {
      // The vnode's element: Preact's `_dom`, which its published build names `__e`.
      const element = (vnode as unknown as { __e?: unknown }).__e;
      const props = vnode.props as Record<string, unknown>;
      if (element instanceof Element) {
        for (const name of ID_ATTRIBUTES) {
          const value = name === "for" ? (props.htmlFor ?? props.for) : props[name];
          if ((typeof value === "string" || typeof value === "number") && element.getAttribute(name) !== String(value))
            element.setAttribute(name, String(value));
        }
      }
    }
    previous?.(vnode);
  };
}

/**
 * The image preloads that React DOM's `preload()` put at the top of the server's <head> have no
 * element in the tree the browser renders. Preact hydrates by pairing each element with the next
 * unused node of the same tag, so they would pair the root's <link>s with the wrong nodes (and a
 * later navigation would rewrite, say, a preload instead of the canonical link). They go to the
 * end of <head>, after every <link> the tree renders; the browser has already started the fetch.
 */
function moveHoistedPreloads(): void {
  for (const link of document.head.querySelectorAll('link[rel="preload"]')) document.head.appendChild(link);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === "function";
}

/**
 * React Router's HydratedRouter suspends (throws a promise) until it has decoded the server's
 * loader data. React waits for that at the root; Preact has no boundary there and rethrows, so
 * this waits for the promise and hydrates again (nothing had rendered before the router threw).
 */
function hydrateWhenReady(children: ReactNode, container: Element): void {
  hydration.active = true;
  try {
    hydrate(children as never, container as never);
  } catch (thrown) {
    if (!isThenable(thrown)) throw thrown;
    thrown.then(
      () => hydrateWhenReady(children, container),
      () => hydrateWhenReady(children, container),
    );
  } finally {
    hydration.active = false;
  }
}

export function hydrateRoot(container: Element | Document, children: ReactNode) {
  let element: Element;
  if (container.nodeType === Node.DOCUMENT_NODE) {
    htmlAsFragment();
    adoptIdsWhileHydrating();
    moveHoistedPreloads();
    element = (container as Document).documentElement;
  } else {
    element = container as Element;
  }
  hydration.inTurns = true;
  hydrateWhenReady(children, element);
  return createRoot(element);
}

export default { createRoot, hydrateRoot };
