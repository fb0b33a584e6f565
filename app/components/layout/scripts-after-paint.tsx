/**
 * Loads the page's scripts once its first frame is painted (docs/architecture.md "What a public
 * page downloads"). The server holds React Router's module preloads and module script back as
 * inert tags (server/http/script-priority.ts); this inline script, which runs while the page is
 * still being read, waits for the first frame and for the end of the HTML, then puts them back as
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
  // A tab opened in the background paints no frame until it is shown: load now.
  if (document.visibilityState === "hidden") return afterParsing();
  // An animation frame's callback runs before that frame is painted; a message posted from it
  // is handled after.
  requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = afterParsing;
    channel.port2.postMessage(null);
  });
})();`;

export function ScriptsAfterFirstPaint({ nonce }: { nonce: string | undefined }) {
  // The text never changes, so React hydrates the element as the server sent it and never runs it
  // again on a client-side navigation. Only the server knows the nonce: the browser's copy is empty.
  return <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: LOADER }} />;
}
