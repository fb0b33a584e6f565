import type { FetcherWithComponents } from "react-router";
import { useIsSubmitting, type PendingFormMatch } from "../../lib/forms";
import { Button, type ButtonProps } from "./button";

export type SubmitButtonProps = Omit<ButtonProps, "type" | "pending" | "name" | "value"> & {
  /** The action and method of the form this button submits, when not the route's own post. */
  action?: PendingFormMatch["action"];
  method?: PendingFormMatch["method"];
  name?: string;
  value?: string;
  /** For a `fetcher.Form`: pending follows that fetcher instead of the page's navigation. */
  fetcher?: Pick<FetcherWithComponents<unknown>, "state">;
};

/**
 * A form's submit button that shows pending (spinner, disabled, aria-busy) while its own form is
 * posting. Without JavaScript it is a plain submit button.
 */
export function SubmitButton({ action, method = "post", name, value, fetcher, ...props }: SubmitButtonProps) {
  const navigating = useIsSubmitting({ action, method, name, value });
  const pending = fetcher ? fetcher.state !== "idle" : navigating;
  return <Button {...props} type="submit" name={name} value={value} pending={pending} />;
}
