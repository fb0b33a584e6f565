import { Link } from "react-router";
import { BarChart3, Building2, FileCheck2, Megaphone, Settings } from "lucide-react";
import { originFrom, seo } from "../lib/meta";
import { requireOwner } from "../../server/auth/guards";
import { ownedListings } from "../../server/auth/ownership";
import { getDatabase } from "../../server/db";
import type { Route } from "./+types/business-dashboard";
import { buttonClasses } from "../components/ui/button";

export function meta({ matches, location }: Route.MetaArgs) {
  return [
    ...seo({ title: "Business dashboard", origin: originFrom(matches), path: location.pathname }),
    { name: "robots", content: "noindex" },
  ];
}

export async function loader({ request }: Route.LoaderArgs) {
  const viewer = await requireOwner(request);
  const listings = await ownedListings(getDatabase(), viewer.userId);
  return { name: viewer.name, email: viewer.email, isAdmin: viewer.isAdmin, listings };
}

const ACTIONS = [
  { to: "/owner/claim", label: "Claim a listing", text: "Find your facility and prove it is yours.", Icon: FileCheck2 },
  { to: "/owner/locations/analytics", label: "Analytics", text: "Views, calls and website visits.", Icon: BarChart3 },
  { to: "/owner/promote", label: "Promote", text: "Appear first as a Preferred Partner.", Icon: Megaphone },
  { to: "/owner/settings", label: "Settings", text: "Your account and notifications.", Icon: Settings },
];

export default function BusinessDashboard({ loaderData }: Route.ComponentProps) {
  const { name, email, listings, isAdmin } = loaderData;
  return (
    <section className="mx-auto max-w-5xl px-4 py-10">
      <p className="text-sm font-semibold text-brand-600">Business dashboard</p>
      <h1 className="mt-1 text-3xl font-bold tracking-tight text-slate-900">Welcome, {name || email}</h1>
      <p className="mt-2 text-slate-600">
        Signed in as {email}
        {isAdmin ? " (admin)" : ""}.
      </p>

      <h2 className="mt-10 text-xl font-semibold text-slate-900">Your listings</h2>
      {listings.length === 0 ? (
        <div className="mt-3 rounded-lg border border-dashed border-slate-300 p-6 text-slate-700">
          <p>You do not manage any listing yet.</p>
          <Link to="/owner/claim" className={buttonClasses("primary", "md", "mt-4 py-2")}>
            Claim your facility
          </Link>
        </div>
      ) : (
        <ul className="mt-3 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
          {listings.map((l) => (
            <li key={l.placeId} className="flex flex-wrap items-center justify-between gap-2 p-4">
              <div className="flex items-center gap-3">
                <Building2 aria-hidden className="size-5 text-slate-500" />
                <div>
                  <Link to={`/location/${l.slug}`} className="font-medium text-brand-700 hover:underline">
                    {l.name}
                  </Link>
                  <p className="text-sm text-slate-600">{[l.city, l.state].filter(Boolean).join(", ")}</p>
                </div>
              </div>
              <Link
                to={`/owner/locations/${l.placeId}/update`}
                className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50"
              >
                Update listing<span className="sr-only"> {l.name}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}

      <h2 className="mt-10 text-xl font-semibold text-slate-900">Next steps</h2>
      <ul className="mt-3 grid gap-3 sm:grid-cols-2">
        {ACTIONS.map(({ to, label, text, Icon }) => (
          <li key={to}>
            <Link
              to={to}
              className="flex h-full items-start gap-3 rounded-lg border border-slate-200 bg-white p-4 hover:border-brand-300 hover:shadow-sm"
            >
              <Icon aria-hidden className="mt-0.5 size-5 text-brand-600" />
              <span>
                <span className="block font-medium text-slate-900">{label}</span>
                <span className="block text-sm text-slate-600">{text}</span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
