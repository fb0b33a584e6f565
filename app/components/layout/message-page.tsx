import { Link } from "react-router";
import { buttonClasses } from "../ui/button";

/** A centred page-level message with a way home: error pages and screens not built yet. */
export function MessagePage({
  eyebrow,
  title,
  text,
  role,
}: {
  eyebrow?: string;
  title: string;
  text: string;
  role?: "alert";
}) {
  return (
    <section className="mx-auto max-w-xl px-4 py-24 text-center" role={role}>
      {eyebrow && <p className="text-sm font-semibold text-brand-600">{eyebrow}</p>}
      <h1 className="mt-2 text-3xl font-bold tracking-tight">{title}</h1>
      <p className="mt-4 text-slate-600">{text}</p>
      <Link to="/" className={buttonClasses("primary", "md", "mt-8 px-5")}>
        Go to Home
      </Link>
    </section>
  );
}
