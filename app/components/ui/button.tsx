import type { ComponentProps } from "react";
import { clsx } from "clsx";

export type ButtonVariant = "primary" | "secondary" | "danger" | "ghost" | "link";
export type ButtonSize = "sm" | "md";

/**
 * The classes of a button, for an element that must be something else: a `<Link>` that looks
 * like the page's primary action. The looks live in app.css's components layer, so `className`
 * (utilities) overrides them without tailwind-merge, which public pages need not download. A
 * link-variant button has no padding, so it sits in a sentence.
 */
export function buttonClasses(variant: ButtonVariant = "primary", size: ButtonSize = "md", className?: string): string {
  return clsx("btn", `btn-${size}`, `btn-${variant}`, className);
}

export function Spinner({ className }: { className?: string }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      fill="none"
      className={clsx("size-4 shrink-0 animate-spin motion-reduce:animate-none", className)}
    >
      <circle cx="12" cy="12" r="9" stroke="currentColor" strokeOpacity="0.3" strokeWidth="3" />
      <path d="M21 12a9 9 0 0 0-9-9" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
}

export type ButtonProps = ComponentProps<"button"> & {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** While true the button is disabled and shows a spinner before its label (which stays). */
  pending?: boolean;
};

/**
 * A button in one of the five looks. `type` defaults to "button", so that a button placed in a
 * form never submits it by accident; submit buttons say `type="submit"`.
 */
export function Button({
  variant = "primary",
  size = "md",
  pending = false,
  type = "button",
  disabled,
  className,
  children,
  ...props
}: ButtonProps) {
  return (
    <button
      type={type}
      disabled={disabled || pending}
      aria-busy={pending || undefined}
      className={buttonClasses(variant, size, className)}
      {...props}
    >
      {pending && <Spinner />}
      {children}
    </button>
  );
}
