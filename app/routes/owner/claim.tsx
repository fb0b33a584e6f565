import Building2 from "lucide-react/icons/building-complex";
import Search from "lucide-react/icons/search";
import { Form, Link } from "react-router";
import { PageHeader } from "../../components/console/page-header";
import type { ConsoleHandle } from "../../components/console/handle";
import { Badge } from "../../components/ui/badge";
import { Button, buttonClasses } from "../../components/ui/button";
import { EmptyState } from "../../components/ui/empty-state";
import { Input } from "../../components/ui/input";
import { MAX_TEXT_FILTER_LENGTH } from "../../../domain/input-limits";
import { privatePageMeta } from "../../lib/meta";
import { viewerContext } from "../../../server/auth/console";
import { claimFinder } from "../../../server/claims/pages";
import type { Route } from "./+types/claim";

export function meta(args: Route.MetaArgs) {
  return privatePageMeta("Claim your listing", args);
}

export const handle: ConsoleHandle = { breadcrumb: "Claim a listing" };

export async function loader({ request, context }: Route.LoaderArgs) {
  return claimFinder(request, context.get(viewerContext));
}

export default function ClaimFinder({ loaderData }: Route.ComponentProps) {
  const { q, total, items } = loaderData;
  return (
    <>
      <PageHeader
        title="Claim your listing"
        description="Find your facility, then tell us who you are. An administrator checks every claim, usually within two business days."
      />
      <Form method="get" role="search" className="mt-6 flex max-w-2xl gap-2">
        <label htmlFor="claim-q" className="sr-only">
          Facility name, street address or city
        </label>
        <Input
          id="claim-q"
          name="q"
          type="search"
          defaultValue={q}
          maxLength={MAX_TEXT_FILTER_LENGTH}
          placeholder="Facility name, street address or city"
          className="flex-1"
        />
        <Button type="submit">
          <Search className="size-4" aria-hidden="true" /> Search
        </Button>
      </Form>

      <div className="mt-6" aria-live="polite">
        {!q ? (
          <EmptyState
            icon={<Building2 />}
            title="Search for your facility"
            text="Type its name, street address or city, as it appears on its listing page."
          />
        ) : items.length === 0 ? (
          <EmptyState
            icon={<Search />}
            title={`No listings match “${q}”`}
            text="Check the spelling, or search by the city or street instead. Listings without a map position cannot be found here yet: contact us from the About page."
          />
        ) : (
          <>
            <p className="text-sm text-slate-600">
              {total > items.length
                ? `Showing the first ${items.length} of ${total} matches: add a city or street to narrow them down.`
                : `${total} ${total === 1 ? "match" : "matches"}`}
            </p>
            <ul className="mt-3 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
              {items.map((item) => (
                <li key={item.id} className="flex flex-wrap items-center justify-between gap-3 p-4">
                  <div className="min-w-0">
                    <Link to={`/location/${item.slug}`} className="font-medium text-brand-700 hover:underline">
                      {item.name}
                    </Link>
                    {item.address && <p className="text-sm text-slate-600">{item.address}</p>}
                  </div>
                  <ClaimStateAction id={item.id} name={item.name} state={item.claimState} />
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
    </>
  );
}

function ClaimStateAction({ id, name, state }: { id: string; name: string; state: string }) {
  const label = <span className="sr-only"> {name}</span>;
  switch (state) {
    case "yours":
      return (
        <div className="flex items-center gap-2">
          <Badge tone="success">You manage this</Badge>
          <Link to={`/owner/locations/${id}/update`} className={buttonClasses("secondary", "sm")}>
            Update{label}
          </Link>
        </div>
      );
    case "pending":
      return (
        <div className="flex items-center gap-2">
          <Badge tone="warning">Your claim is pending</Badge>
          <Link to="/owner/claims" className={buttonClasses("secondary", "sm")}>
            View claim{label}
          </Link>
        </div>
      );
    case "managed":
      return (
        <div className="flex items-center gap-2">
          <Badge>Managed by another owner</Badge>
          <Link to={`/owner/claim/${id}`} className={buttonClasses("secondary", "sm")}>
            Request a transfer{label}
          </Link>
        </div>
      );
    default:
      return (
        <Link to={`/owner/claim/${id}`} className={buttonClasses("primary", "sm")}>
          Claim{label}
        </Link>
      );
  }
}
