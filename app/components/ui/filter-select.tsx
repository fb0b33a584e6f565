import type { ReactNode } from "react";
import { Select } from "./select";

/**
 * One labelled filter of a console list's GET form. Choosing a value submits the form at once
 * (the list follows the choice); without JavaScript the form's own Filter button does it.
 */
export function FilterSelect({
  id,
  name,
  label,
  value,
  children,
}: {
  id: string;
  name: string;
  label: string;
  value: string;
  children: ReactNode;
}) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <Select
        key={value}
        id={id}
        name={name}
        defaultValue={value}
        className="mt-1 w-full"
        onChange={(event) => event.currentTarget.form?.requestSubmit()}
      >
        {children}
      </Select>
    </div>
  );
}
