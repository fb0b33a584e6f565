import type { ShouldRevalidateFunctionArgs } from "react-router";
import { ArticleEditor } from "../../components/blog/article-editor";
import type { ConsoleHandle } from "../../components/console/handle";
import { privatePageMeta } from "../../lib/meta";
import { viewerContext } from "../../../server/auth/console";
import { adminBlogEditAction, adminBlogEditPage } from "../../../server/blog/admin-pages";
import { requestIdContext } from "../../../server/http/request-context";
import type { Route } from "./+types/blog-edit";

export function meta(args: Route.MetaArgs) {
  return privatePageMeta(args.data ? `Edit: ${args.data.article.title}` : "Edit article", args);
}

export const handle: ConsoleHandle = { breadcrumb: "Edit article" };

export async function loader({ params }: Route.LoaderArgs) {
  return adminBlogEditPage(params.id);
}

export async function action({ request, params, context }: Route.ActionArgs) {
  return adminBlogEditAction(request, context.get(viewerContext), params.id, context.get(requestIdContext));
}

/**
 * The editor's own saves (and previews) answer with what changed: reloading the article after each
 * would only fight the text being typed. Cover uploads and the rest reload as usual.
 */
export function shouldRevalidate({ formData, formAction, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formAction?.endsWith("/admin/blog/preview")) return false;
  if (formData?.get("js") === "1" && formData.get("intent") !== null && !formAction?.endsWith("/image")) return false;
  return defaultShouldRevalidate;
}

export default function EditArticle({ loaderData, actionData }: Route.ComponentProps) {
  return <ArticleEditor key={loaderData.article.id} data={loaderData} answer={actionData} />;
}
