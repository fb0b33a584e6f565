import { getDatabase, hasDatabase } from "../db";
import { demoPhotoIsListed } from "./demo-photos";
import { getImageStorage } from ".";
import { servePlaceImage } from "./serve";

/**
 * GET|HEAD /place-images/{placeId}/w{width}n{index}.{avif|webp|jpg}: processed place photos. A demo
 * photo is made on first ask only for a listing that shows it; without a database, none is.
 */
export function placeImageResponse(request: Request, params: { placeId?: string; file?: string }) {
  return servePlaceImage(request, params, {
    storage: getImageStorage(),
    demoPhotoIsListed: (placeId, index) =>
      hasDatabase() ? demoPhotoIsListed(getDatabase(), placeId, index) : Promise.resolve(false),
  });
}
