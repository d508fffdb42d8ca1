import type { ReactNode } from 'react';
import { ApiError } from '../../lib/api';

export interface ListTexts {
  /** "Loading contact submissions..." */
  loading: string;
  /** "Error loading contact submissions" */
  error: string;
  /** "No contact submissions yet" */
  empty: string;
}

interface Props<T> {
  texts: ListTexts;
  isPending: boolean;
  error: Error | null;
  items: T[] | undefined;
  children: (items: T[]) => ReactNode;
}

/** A list's four states: loading, failed (with why), empty, or its items. */
export function ListStatus<T>({ texts, isPending, error, items, children }: Props<T>) {
  if (isPending) {
    return (
      <p role="status" className="py-10 text-center text-slate-700">
        {texts.loading}
      </p>
    );
  }
  if (error) {
    const cause = error.cause instanceof ApiError ? error.cause.message : null;
    return (
      <div role="alert" className="rounded-lg border border-crimson/40 bg-crimson/5 p-4 text-crimson-dark">
        <p className="font-semibold">
          {texts.error}: {error.message}
        </p>
        {cause && <p className="mt-1 text-sm">{cause}</p>}
      </div>
    );
  }
  if (!items || items.length === 0) {
    return <p className="py-10 text-center text-slate-700">{texts.empty}</p>;
  }
  return <>{children(items)}</>;
}
