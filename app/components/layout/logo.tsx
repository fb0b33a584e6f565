/** The site mark: a simple RV silhouette, drawn inline so nothing is fetched. */
export function Logo({ className = "size-8" }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={className} aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="8" fill="#4668F2" />
      <path d="M5 20V11a2 2 0 0 1 2-2h13l5 5h1a1 1 0 0 1 1 1v5H5z" fill="#fff" />
      <rect x="8" y="12" width="4" height="3" rx="0.5" fill="#4668F2" />
      <rect x="14" y="12" width="4" height="3" rx="0.5" fill="#4668F2" />
      <circle cx="10" cy="22" r="2.5" fill="#fff" stroke="#4668F2" strokeWidth="1.5" />
      <circle cx="22" cy="22" r="2.5" fill="#fff" stroke="#4668F2" strokeWidth="1.5" />
    </svg>
  );
}
