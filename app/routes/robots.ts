import { siteOrigin } from "../../server/http/origin";
import type { Route } from "./+types/robots";

/** GET /robots.txt: everything public is crawlable; consoles, sign-in and the API are not. */
export function loader({ request }: Route.LoaderArgs) {
  const body = [
    "User-agent: *",
    "Disallow: /admin",
    "Disallow: /owner",
    "Disallow: /business",
    "Disallow: /login",
    "Disallow: /signup",
    "Disallow: /api/",
    "",
    `Sitemap: ${new URL("/sitemap.xml", siteOrigin(request))}`,
    "",
  ].join("\n");
  return new Response(body, {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=86400" },
  });
}
