import { adminBlogPreview } from "../../../server/blog/admin-pages";
import type { Route } from "./+types/blog-preview";

/** POST /admin/blog/preview: the editor's live preview (docs/api.md). */
export async function action({ request }: Route.ActionArgs) {
  return adminBlogPreview(request);
}
