import type { Route } from "./+types/about";
import { originFrom, seo } from "../lib/meta";
import { SITE_NAME } from "../../domain/site";

export function meta({ matches, location }: Route.MetaArgs) {
  return seo({
    title: "About and credits",
    description: `What ${SITE_NAME} is, where its place data comes from, and the licences it uses.`,
    origin: originFrom(matches),
    path: location.pathname,
  });
}

export default function About() {
  return (
    <article className="mx-auto max-w-3xl px-4 py-12">
      <h1 className="text-3xl font-bold tracking-tight">About {SITE_NAME}</h1>
      <p className="mt-4 text-lg text-slate-700">
        {SITE_NAME} helps RV owners find storage near a place, compare facilities by size, security and amenities, and
        contact them directly. Facility owners can claim and improve their listings.
      </p>

      <h2 className="mt-10 text-xl font-semibold">Demo listings</h2>
      <p className="mt-2 text-slate-700">
        Listings marked “Demo listing” are generated sample data placed around real towns so the site can be tried out.
        Their names, phone numbers (555-01xx), websites and reviews are fictional.
      </p>

      <h2 id="credits" className="mt-10 text-xl font-semibold">
        Credits and data licences
      </h2>
      <ul className="mt-2 list-disc space-y-2 pl-6 text-slate-700">
        <li>
          Place names, populations, coordinates and ZIP codes:{" "}
          <a className="text-brand-600 underline" href="https://www.geonames.org/">
            GeoNames
          </a>
          , licensed under{" "}
          <a className="text-brand-600 underline" href="https://creativecommons.org/licenses/by/4.0/">
            Creative Commons Attribution 4.0 (CC BY 4.0)
          </a>
          . We use a US-only extract of the cities500 and postal code datasets.
        </li>
        <li>
          State boundaries: U.S. Census Bureau cartographic boundary files (public domain), via the us-atlas project
          (ISC licence).
        </li>
        <li>
          Map data, where maps are shown: ©{" "}
          <a className="text-brand-600 underline" href="https://www.openstreetmap.org/copyright">
            OpenStreetMap contributors
          </a>
          .
        </li>
      </ul>
    </article>
  );
}
