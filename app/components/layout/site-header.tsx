import { Form, Link, NavLink } from "react-router";
import { SavedLink } from "./saved-link";
import { useAuth } from "../../lib/auth";
import { SITE_NAME } from "../../../domain/site";
import { Logo } from "./logo";
import { PHONE_MENU_ITEM, PhoneMenu } from "./phone-menu";
import { buttonClasses } from "../ui/button";

/**
 * The header of docs/product.md section 2: logo home link, Articles, the role-gated Admin Console (admins)
 * and Owner Console (user, business_owner and admin) links, and Login or Sign out. Transparent
 * over the home page's hero, opaque everywhere else. The links are cosmetic: the server guards
 * every console route.
 */
export function SiteHeader({ transparent }: { transparent: boolean }) {
  const viewer = useAuth();
  const tone = transparent
    ? "absolute inset-x-0 top-0 z-20 bg-transparent text-white"
    : "sticky top-0 z-20 border-b border-slate-200 bg-white/95 text-slate-900 backdrop-blur";
  const link = transparent
    ? "whitespace-nowrap rounded-md px-2 py-2 font-medium text-white hover:bg-white/15 sm:px-3"
    : "whitespace-nowrap rounded-md px-2 py-2 font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-900 sm:px-3";
  const button = transparent
    ? "whitespace-nowrap rounded-md bg-white px-3 py-2 font-medium text-brand-700 hover:bg-brand-50 sm:px-4"
    : buttonClasses("primary", "md", "whitespace-nowrap px-3 py-2 sm:px-4");
  return (
    <header className={`${tone} print:hidden`} data-transparent={transparent}>
      <nav aria-label="Main" className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-2 px-4">
        <Link
          to="/"
          className="flex items-center gap-2 whitespace-nowrap rounded-md text-base font-semibold sm:text-lg"
          aria-label={`${SITE_NAME} home`}
        >
          <Logo />
          <span>{SITE_NAME}</span>
        </Link>
        {/* Signed-in phones find these links, 'Saved' included, behind 'Menu'. */}
        <div className="flex items-center gap-1 text-sm sm:text-base">
          <div className={`items-center gap-1 ${viewer.signedIn ? "hidden md:flex" : "flex"}`}>
            <SavedLink className={link} />
            {/* Phones: no room beside 'Saved'; the footer links Articles on every page. */}
            <NavLink to="/blog" className={`${link} hidden sm:inline`}>
              Articles
            </NavLink>
            {viewer.isAdmin && (
              <NavLink to="/admin" className={link} aria-label="Admin Console">
                Admin<span className="hidden sm:inline"> Console</span>
              </NavLink>
            )}
            {viewer.isOwner && (
              <NavLink to="/owner" className={link} aria-label="Owner Console">
                Owner<span className="hidden sm:inline"> Console</span>
              </NavLink>
            )}
            {viewer.signedIn ? (
              <Form method="post" action="/logout">
                <button
                  type="submit"
                  className={button}
                  title={viewer.name ? `Signed in as ${viewer.name}` : undefined}
                >
                  Sign out
                </button>
              </Form>
            ) : (
              <NavLink to="/login" className={button}>
                Login
              </NavLink>
            )}
          </div>
          {viewer.signedIn && (
            <PhoneMenu transparent={transparent} className="md:hidden">
              <NavLink to="/saved" className={PHONE_MENU_ITEM}>
                Saved
              </NavLink>
              <NavLink to="/blog" className={PHONE_MENU_ITEM}>
                Articles
              </NavLink>
              {viewer.isAdmin && (
                <NavLink to="/admin" className={PHONE_MENU_ITEM}>
                  Admin Console
                </NavLink>
              )}
              {viewer.isOwner && (
                <NavLink to="/owner" className={PHONE_MENU_ITEM}>
                  Owner Console
                </NavLink>
              )}
              <Form method="post" action="/logout">
                <button type="submit" className={PHONE_MENU_ITEM}>
                  Sign out
                </button>
              </Form>
            </PhoneMenu>
          )}
        </div>
      </nav>
    </header>
  );
}
