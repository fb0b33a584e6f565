import type { Route } from "./+types/place-images";
import { placeImageResponse } from "../../server/images/pages";

/** GET|HEAD /place-images/{placeId}/w{width}n{index}.{avif|webp|jpg}: processed place photos. */
export function loader({ request, params }: Route.LoaderArgs) {
  return placeImageResponse(request, params);
}
