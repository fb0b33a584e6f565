import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { renderToPipeableStream } from "react-dom/server";
import type { EntryContext, RouterContextProvider } from "react-router";
import { ServerRouter } from "react-router";
import { NonceContext } from "./lib/nonce";
import { nonceContext } from "../server/http/request-context";
import { scriptsAfterFirstPaint } from "../server/http/script-priority";
import { contentSecurityPolicy, withContentSecurityPolicy } from "../server/http/security";
import { inlineScriptHashes } from "../server/http/shared-cache";
import { getConfig } from "../server/config";
import { logger } from "../server/logger";

/**
 * React Router's Node entry, plus the Content-Security-Policy: every inline script it renders
 * (hydration data, streamed chunks, scroll restoration) carries this response's nonce, except on a
 * page a shared cache may keep (server/http/shared-cache.ts), which has no nonce: it is rendered
 * whole, and the policy names the hashes of its inline scripts.
 */
export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  // The security headers leave the nonce empty on a page a shared cache may keep.
  const nonce = loadContext.get(nonceContext) || undefined;
  const shared = nonce === undefined;
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    // Crawlers and shared pages get the whole page at once; people get the shell as soon as it is ready.
    const readyOption: keyof RenderToPipeableStreamOptions =
      shared || (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";
    // A render still waiting after the stream timeout is cut short; what was not ready becomes an
    // error (a 500 for a crawler, whose answer waits for everything). Said in the log, since
    // nothing else would say why the page failed.
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => {
      logger.warn({ url: request.url, shellRendered, ms: streamTimeout + 1000 }, "a page's render timed out");
      abort();
    }, streamTimeout + 1000);

    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceContext.Provider>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          // The scripts load after the first paint: the HTML is the whole page (server/http/script-priority.ts).
          const body = scriptsAfterFirstPaint(() => {
            clearTimeout(timeoutId);
            timeoutId = undefined;
          });
          responseHeaders.set("Content-Type", "text/html");
          pipe(body);
          if (shared) {
            resolve(wholePage(body, responseHeaders, responseStatusCode));
            return;
          }
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors inside the shell are logged by React Router's handleDocumentRequest.
          if (shellRendered) console.error(error);
        },
      },
    );
  });
}

/** A shared page, read whole so that the policy can name the hashes of its inline scripts. */
async function wholePage(body: NodeJS.ReadableStream, headers: Headers, status: number): Promise<Response> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  const page = Buffer.concat(chunks);
  const config = getConfig();
  if (withContentSecurityPolicy(config)) {
    headers.set("Content-Security-Policy", contentSecurityPolicy(inlineScriptHashes(page), config));
  }
  return new Response(page, { headers, status });
}
