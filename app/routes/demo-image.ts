import type { Route } from "./+types/demo-image";
import { renderDemoPhoto } from "../../server/locations/demo-photo";

/** GET /demo-images/{placeId}/{n}.svg: the drawn photos of demo listings. */
export function loader({ params }: Route.LoaderArgs) {
  const match = /^([1-9]\d?)\.svg$/.exec(params.file);
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(params.placeId) || !match) {
    return new Response("Unknown demo image", { status: 404, headers: { "Content-Type": "text/plain" } });
  }
  return new Response(renderDemoPhoto(params.placeId, Number(match[1])), {
    headers: {
      "Content-Type": "image/svg+xml; charset=utf-8",
      "Cache-Control": "public, max-age=31536000, immutable",
    },
  });
}
