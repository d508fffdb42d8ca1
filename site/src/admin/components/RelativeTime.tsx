import { formatExact, formatRelative } from './dates';

/** "3 hours ago", with the exact date and time as the element's title. */
export function RelativeTime({ iso, className }: { iso: string; className?: string }) {
  return (
    <time dateTime={iso} title={formatExact(iso)} className={className}>
      {formatRelative(iso)}
    </time>
  );
}
