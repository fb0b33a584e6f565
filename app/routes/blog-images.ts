import { serveBlogImage } from "../../server/blog/images";
import { getImageStorage } from "../../server/images";
import type { Route } from "./+types/blog-images";

/** GET|HEAD /blog-images/{imageId}/w{width}.{avif|webp|jpg}: an article's processed image. */
export function loader({ request, params }: Route.LoaderArgs) {
  return serveBlogImage(request, params, getImageStorage());
}
