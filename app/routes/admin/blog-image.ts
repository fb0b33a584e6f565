import { viewerContext } from "../../../server/auth/console";
import { adminBlogImageAction } from "../../../server/blog/admin-pages";
import { requestIdContext } from "../../../server/http/request-context";
import type { Route } from "./+types/blog-image";

/** POST /admin/blog/edit/{id}/image: a cover or body image for the article (docs/api.md). */
export async function action({ request, params, context }: Route.ActionArgs) {
  return adminBlogImageAction(request, context.get(viewerContext), params.id, context.get(requestIdContext));
}
