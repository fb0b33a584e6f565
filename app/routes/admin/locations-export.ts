import { catalogueExport } from "../../../server/catalogue/pages";
import type { Route } from "./+types/locations-export";

/** The catalogue as CSV or GeoJSON, the rows the table's filters keep (docs/api.md). */
export function loader({ request }: Route.LoaderArgs) {
  return catalogueExport(request);
}
