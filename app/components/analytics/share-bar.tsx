/** A source's share of all page views, as a bar and a rounded percentage. */
export function ShareBar({ share }: { share: number }) {
  return (
    <div className="flex items-center gap-2">
      <div className="h-2 flex-1 rounded-full bg-slate-100">
        <div className="h-2 rounded-full bg-brand-500" style={{ width: `${share}%` }} />
      </div>
      <span className="w-10 text-right text-slate-600">{Math.round(share)}%</span>
    </div>
  );
}
