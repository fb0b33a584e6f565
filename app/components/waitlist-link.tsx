import { Form, Link } from "react-router";
import { Button, buttonClasses } from "./ui/button";

type LinkView =
  | { ok: true; status: "pending" | "active" | "left"; size: string; listing: { name: string; slug: string } }
  | { ok: false; reason: "invalid" | "expired" };

const NOT_WORKING = {
  invalid:
    "This link does not work: it may be incomplete, already replaced by a newer one, or the listing is no longer on the site. Copy the whole link from the email.",
  expired: "This link has expired. Join the waitlist again from the facility's page.",
} as const;

/**
 * The page of a waitlist email's link (docs/product.md section 17): it says what the link does and
 * asks with one button, so a mail scanner opening the link changes nothing; then says what it did.
 */
export function WaitlistLinkPage({
  kind,
  token,
  state,
  done,
}: {
  kind: "confirm" | "leave";
  token: string;
  state: LinkView;
  /** The state after the POST, when the button was pressed. */
  done: LinkView | undefined;
}) {
  const shown = done ?? state;
  const title = kind === "confirm" ? "Confirm your place on the waitlist" : "Leave the waitlist";
  return (
    <div className="mx-auto max-w-xl px-4 py-12">
      <h1 className="text-2xl font-bold text-slate-900">{title}</h1>
      {!shown.ok ? (
        <p role="alert" className="mt-4 text-slate-700">
          {NOT_WORKING[shown.reason]}
        </p>
      ) : done || (kind === "confirm" ? shown.status === "active" : shown.status === "left") ? (
        <p role="status" className="mt-4 text-slate-700">
          {kind === "confirm"
            ? `You are on the waitlist for ${shown.size} ft at ${shown.listing.name}. We email you when that size has space.`
            : `You left the waitlist for ${shown.size} ft at ${shown.listing.name}. We will not email you about it again.`}{" "}
          <Link to={`/location/${shown.listing.slug}`} className="text-brand-700 underline">
            See the facility
          </Link>
        </p>
      ) : (
        <>
          <p className="mt-4 text-slate-700">
            {kind === "confirm"
              ? `Join the waitlist for ${shown.size} ft at ${shown.listing.name}? Your place in the queue counts from now.`
              : `Stop waiting for ${shown.size} ft at ${shown.listing.name}? We will not email you about it again.`}
          </p>
          <Form method="post" className="mt-6 flex flex-wrap gap-3">
            <input type="hidden" name="token" value={token} />
            <Button type="submit">{kind === "confirm" ? "Confirm my place" : "Leave the waitlist"}</Button>
            <Link to={`/location/${shown.listing.slug}`} className={buttonClasses("secondary")}>
              {kind === "confirm" ? "Not now" : "Stay on it"}
            </Link>
          </Form>
        </>
      )}
    </div>
  );
}
