import { viewerContext } from "../../../server/auth/console";
import { importUploadAction } from "../../../server/catalogue/pages";
import { requestIdContext } from "../../../server/http/request-context";
import type { Route } from "./+types/locations-import-upload";

/**
 * Receives one catalogue file (docs/api.md): JSON for the import page's script, which shows the
 * upload's progress, a redirect to the import's page for a plain form.
 */
export async function action({ request, context }: Route.ActionArgs) {
  return importUploadAction(request, context.get(viewerContext), context.get(requestIdContext));
}
