import { Link } from "react-router";
import { SITE_NAME } from "../../../domain/site";

export function SiteFooter() {
  return (
    <footer className="mt-16 border-t print:hidden border-slate-200 bg-slate-50">
      <div className="mx-auto flex max-w-7xl flex-col gap-3 px-4 py-8 text-sm text-slate-600 sm:flex-row sm:items-center sm:justify-between">
        <p>
          © {new Date().getFullYear()} {SITE_NAME}. Listings marked “Demo listing” are sample data.
        </p>
        <nav aria-label="Footer" className="flex gap-4">
          <Link to="/blog" className="hover:text-slate-900 hover:underline">
            Articles
          </Link>
          <Link to="/about" className="hover:text-slate-900 hover:underline">
            About &amp; credits
          </Link>
        </nav>
      </div>
    </footer>
  );
}
