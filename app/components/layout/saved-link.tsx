import Heart from "lucide-react/icons/heart";
import { NavLink } from "react-router";
import { useSavedCount } from "../../lib/saved-store";

/** The header's 'Saved (N)' link (docs/product.md section 15); a heart and the count on phones. */
export function SavedLink({ className }: { className: string }) {
  const count = useSavedCount();
  return (
    <NavLink to="/saved" className={`${className} inline-flex items-center gap-1`} aria-label={`Saved (${count})`}>
      <Heart className={`size-4 ${count > 0 ? "fill-current" : ""}`} aria-hidden="true" />
      <span className="hidden sm:inline">Saved</span>
      <span>({count})</span>
    </NavLink>
  );
}
