import Search from "lucide-react/icons/search";
import { Link } from "react-router";
import { MAX_TEXT_FILTER_LENGTH } from "../../../domain/input-limits";
import { Button, buttonClasses } from "./button";
import { Input } from "./input";

/**
 * The search box of a console list's GET form (`q`), its Filter button, and, when `clearTo` is
 * given, a link back to the unfiltered list. Placed in a flex row with the form's other fields.
 */
export function FilterSearch({
  id,
  value,
  placeholder,
  clearTo,
}: {
  id: string;
  value: string;
  placeholder: string;
  clearTo?: string;
}) {
  return (
    <>
      <div className="min-w-56 flex-1">
        <label htmlFor={id} className="block text-sm font-medium text-slate-700">
          Search
        </label>
        <Input
          id={id}
          name="q"
          type="search"
          defaultValue={value}
          maxLength={MAX_TEXT_FILTER_LENGTH}
          placeholder={placeholder}
          className="mt-1 w-full"
        />
      </div>
      <Button type="submit" variant="secondary">
        <Search className="size-4" aria-hidden="true" /> Filter
      </Button>
      {clearTo && (
        <Link to={clearTo} className={buttonClasses("ghost")}>
          Clear filters
        </Link>
      )}
    </>
  );
}
