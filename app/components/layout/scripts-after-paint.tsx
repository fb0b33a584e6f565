/**
 * Loads the page's scripts once the page is painted (docs/architecture.md "What a public
 * page downloads"). The server holds React Router's module preloads and module script back as
 * inert tags (server/http/script-priority.ts); this inline script, which runs while the page is
 * still being read, waits for the first contentful paint and for the end of the HTML, then puts them back as
 * React Router rendered them, so the browser fetches and runs them. Without JavaScript nothing
 * changes: links and forms work as plain HTML.
 */
const LOADER = `(() => {
  const restore = () => {
    for (const held of document.querySelectorAll("link[data-after-paint]")) {
      const link = document.createElement("link");
      // The attributes as the server wrote them: React finds the preloads it rendered by their
      // href as written, not as resolved.
      for (const { name, value } of held.attributes) if (name !== "data-after-paint") link.setAttribute(name, value);
      link.rel = "modulepreload";
      held.replaceWith(link);
    }
    for (const held of document.querySelectorAll('script[type="text/x-after-paint"]')) {
      const script = document.createElement("script");
      script.nonce = held.nonce;
      script.type = "module";
      script.async = true;
      script.textContent = held.textContent;
      held.replaceWith(script);
    }
  };
  const afterParsing = () => {
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", restore, { once: true });
    else restore();
  };
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    afterParsing();
  };
  // A tab opened in the background paints nothing until it is shown: load now.
  if (document.visibilityState === "hidden") return start();
  if (typeof PerformanceObserver === "function" && PerformanceObserver.supportedEntryTypes?.includes("paint")) {
    // The browser's own record of the first contentful paint comes once that frame is on screen;
    // an animation frame's callback only says a frame is being drawn, and the scripts requested
    // from it sometimes went out before the page was shown.
    new PerformanceObserver((entries, observer) => {
      if (!entries.getEntriesByName("first-contentful-paint").length) return;
      observer.disconnect();
      start();
    }).observe({ type: "paint", buffered: true });
    // A page with nothing to paint still becomes interactive.
    setTimeout(start, 3000);
  } else {
    // Without paint timing: two frames on, the first one has been shown.
    requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(start)));
  }
})();`;

export function ScriptsAfterFirstPaint({ nonce }: { nonce: string | undefined }) {
  // The text never changes, so React hydrates the element as the server sent it and never runs it
  // again on a client-side navigation. Only the server knows the nonce: the browser's copy is empty.
  return <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: LOADER }} />;
}
