import { Button } from "../ui/button";
import { Field } from "../ui/field";
import { Input } from "../ui/input";
import { CUSTOM_RANGE } from "../../../domain/analytics-period";
import { cn } from "../../lib/cn";

/** The fields of an analytics period form, shared by the owner and admin screens. */

/**
 * The period choices of an analytics form as a row of radio buttons drawn as toggles: the presets
 * (days) and "Custom". With nothing chosen, 30 days is.
 */
export function PeriodPresets({
  presets,
  days,
  label = (d) => `${d} days`,
  className,
}: {
  presets: readonly number[];
  /** The `days` value of the address ("" when absent). */
  days: string;
  label?: (days: string) => string;
  className?: string;
}) {
  const checked = (choice: string) => days === choice || (days === "" && choice === "30");
  return (
    <fieldset className="mb-4">
      <legend className="mb-1 block text-sm font-medium text-slate-800">Period</legend>
      <div className={cn("flex flex-wrap gap-1", className)} key={days}>
        {[...presets.map(String), CUSTOM_RANGE].map((choice) => (
          <label
            key={choice}
            className={cn(
              "cursor-pointer rounded-md border px-3 py-2 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-500",
              checked(choice)
                ? "border-brand-500 bg-brand-50 font-medium text-brand-700"
                : "border-slate-300 text-slate-700 hover:bg-slate-50",
            )}
          >
            <input type="radio" name="days" value={choice} defaultChecked={checked(choice)} className="sr-only" />
            {choice === CUSTOM_RANGE ? "Custom" : label(choice)}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** From and To dates of a custom range and the form's "Show" button. */
export function DateRangeFields({
  from,
  to,
  error,
  fieldClassName,
}: {
  from: string;
  to: string;
  /** The form's refusal, shown under From or To when it names one. */
  error: { field: string; message: string } | null;
  fieldClassName: string;
}) {
  return (
    <div className="flex flex-wrap items-start gap-x-4">
      <Field
        label="From"
        name="from"
        error={error?.field === "from" ? error.message : undefined}
        className={fieldClassName}
      >
        {(control) => <Input {...control} type="date" defaultValue={from} key={`from-${from}`} />}
      </Field>
      <Field label="To" name="to" error={error?.field === "to" ? error.message : undefined} className={fieldClassName}>
        {(control) => <Input {...control} type="date" defaultValue={to} key={`to-${to}`} />}
      </Field>
      <div className="mb-4 self-end pb-px">
        <Button type="submit" variant="secondary">
          Show
        </Button>
      </div>
    </div>
  );
}
