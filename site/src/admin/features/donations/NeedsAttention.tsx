// "Needs attention": donors whose gifts in a year, less what went back, are over that year's
// limit (a redesignation, a payment that arrived after its gift expired). The committee has
// 60 days from the gift that went over to refund the excess; each line says how many are
// left. Nothing shows while no donor is over.
import { useQuery } from '@tanstack/react-query';
import { attentionQuery } from './api';
import { daysLeftText, formatAmount } from './format';

export function NeedsAttention() {
  const over = useQuery(attentionQuery()).data;
  if (!over || over.length === 0) return null;
  return (
    <section aria-labelledby="needs-attention" className="mt-4 rounded-lg border border-crimson/40 bg-crimson/5 p-4 text-sm text-ink">
      <h3 id="needs-attention" className="font-semibold text-crimson-dark">
        Needs attention: {over.length === 1 ? '1 donor is' : `${over.length} donors are`} over the annual limit
      </h3>
      <ul className="mt-2 space-y-1">
        {over.map((o) => (
          <li key={`${o.donorEmail}-${o.year}`} className="break-words">
            <span className="font-semibold">{o.donorName}</span> ({o.donorEmail}) gave {formatAmount(o.total)} in {o.year}, {formatAmount(o.excess)} over the{' '}
            {formatAmount(o.limit)} limit. Refund the excess: <span className="font-semibold">{daysLeftText(o.daysLeft, o.deadline)}</span>.
          </li>
        ))}
      </ul>
    </section>
  );
}
