import type { ReactNode } from 'react';

/** One submission: a heading line with its actions, then its details. */
export function Card({ heading, actions, children }: { heading: ReactNode; actions?: ReactNode; children: ReactNode }) {
  return (
    <li className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 flex-1">{heading}</div>
        {actions}
      </div>
      <div className="mt-3 space-y-1 text-sm text-slate-700">{children}</div>
    </li>
  );
}

/** A labelled value inside a card. */
export function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <p className="break-words">
      <span className="font-semibold text-ink">{label}:</span> {children}
    </p>
  );
}

export function CardList({ children }: { children: ReactNode }) {
  return <ul className="mt-4 grid gap-4">{children}</ul>;
}
