import { Form, useActionData } from "react-router";
import { PageHeader } from "../../components/console/page-header";
import type { ConsoleHandle } from "../../components/console/handle";
import { Field } from "../../components/ui/field";
import { Input } from "../../components/ui/input";
import { SubmitButton } from "../../components/ui/submit-button";
import { ARTICLE_TITLE_MAX } from "../../../domain/articles";
import { privatePageMeta } from "../../lib/meta";
import { viewerContext } from "../../../server/auth/console";
import { adminBlogNewAction } from "../../../server/blog/admin-pages";
import { requestIdContext } from "../../../server/http/request-context";
import type { Route } from "./+types/blog-new";

export function meta(args: Route.MetaArgs) {
  return privatePageMeta("New article", args);
}

export const handle: ConsoleHandle = { breadcrumb: "New article" };

export async function action({ request, context }: Route.ActionArgs) {
  return adminBlogNewAction(request, context.get(viewerContext), context.get(requestIdContext));
}

/** /admin/blog/new: a title starts the draft; the editor takes it from there (docs/product.md section 13). */
export default function NewArticle() {
  const answer = useActionData<typeof action>();
  const failed = answer && "ok" in answer && !answer.ok ? answer : undefined;
  return (
    <>
      <PageHeader
        title="New article"
        description="Give it a working title; you can change it, and its address, later."
      />
      <Form method="post" className="mt-6 max-w-xl rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
        <Field label="Title" name="title" error={failed?.fieldErrors.title}>
          {(control) => (
            <Input
              {...control}
              required
              maxLength={ARTICLE_TITLE_MAX}
              defaultValue={failed?.values.title}
              placeholder="How to store an RV for winter"
              autoFocus
            />
          )}
        </Field>
        <SubmitButton>Create draft</SubmitButton>
      </Form>
    </>
  );
}
