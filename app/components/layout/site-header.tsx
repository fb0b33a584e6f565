import { Link, NavLink } from "react-router";
import { SITE_NAME } from "../../lib/site";
import { Logo } from "./logo";

/**
 * The header of SPEC.md section 2: logo home link, Articles and Login. Transparent over the home
 * page's hero, opaque everywhere else. Role-gated console links arrive with accounts.
 */
export function SiteHeader({ transparent }: { transparent: boolean }) {
  const tone = transparent
    ? "absolute inset-x-0 top-0 z-20 bg-transparent text-white"
    : "sticky top-0 z-20 border-b border-slate-200 bg-white/95 text-slate-900 backdrop-blur";
  const link = transparent
    ? "rounded-md px-2 py-2 font-medium text-white hover:bg-white/15 sm:px-3"
    : "rounded-md px-2 py-2 font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-900 sm:px-3";
  return (
    <header className={tone} data-transparent={transparent}>
      <nav aria-label="Main" className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-2 px-4">
        <Link
          to="/"
          className="flex items-center gap-2 whitespace-nowrap rounded-md text-base font-semibold sm:text-lg"
          aria-label={`${SITE_NAME} home`}
        >
          <Logo />
          <span>{SITE_NAME}</span>
        </Link>
        <div className="flex items-center gap-1">
          <NavLink to="/blog" className={link}>
            Articles
          </NavLink>
          <NavLink
            to="/login"
            className={
              transparent
                ? "rounded-md bg-white px-4 py-2 font-medium text-brand-700 hover:bg-brand-50"
                : "rounded-md bg-brand-500 px-4 py-2 font-medium text-white hover:bg-brand-600"
            }
          >
            Login
          </NavLink>
        </div>
      </nav>
    </header>
  );
}
