import type { ReactNode } from 'react';

/** A tab's heading line: its title and its buttons. */
export function PanelHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <h2 className="font-serif text-2xl font-bold text-navy">{title}</h2>
      <div className="flex flex-wrap gap-3">{children}</div>
    </div>
  );
}
