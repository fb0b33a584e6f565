import type { Route } from "./+types/place-images";
import { getDatabase, hasDatabase } from "../../server/db";
import { getImageStorage } from "../../server/images";
import { demoPhotoIsListed } from "../../server/images/demo-photos";
import { servePlaceImage } from "../../server/images/serve";

/** GET|HEAD /place-images/{placeId}/w{width}n{index}.{avif|webp|jpg}: processed place photos. */
export function loader({ request, params }: Route.LoaderArgs) {
  return servePlaceImage(request, params, {
    storage: getImageStorage(),
    demoPhotoIsListed: (placeId, index) =>
      hasDatabase() ? demoPhotoIsListed(getDatabase(), placeId, index) : Promise.resolve(false),
  });
}
