import type { ReactNode } from 'react';
import { Card, CardList, Detail } from '../../components/Card';
import { ExportButton } from '../../components/ExportButton';
import { ListStatus } from '../../components/ListStatus';
import { PanelHeader } from '../../components/PanelHeader';
import { RelativeTime } from '../../components/RelativeTime';
import { type Donation, donationsExportUrl } from './api';
import { type BadgeVariant, type SortKey, formatAmount, formatPurpose, giftState, statusBadge } from './format';
import { NeedsAttention } from './NeedsAttention';
import { RefundDialog } from './RefundDialog';
import { ScheduleExport } from './ScheduleExport';
import type { useDonations } from './useDonations';

const texts = {
  loading: 'Loading donations...',
  error: 'Error loading donations',
  empty: 'No donations yet',
};

const SORTS: { key: SortKey; label: string }[] = [
  { key: 'name', label: 'Sort by Name' },
  { key: 'amount', label: 'Sort by Amount' },
  { key: 'date', label: 'Sort by Date' },
];

const ORDER_WORDS: Record<SortKey, Record<'asc' | 'desc', string>> = {
  name: { asc: 'A to Z', desc: 'Z to A' },
  amount: { asc: 'smallest first', desc: 'largest first' },
  date: { asc: 'oldest first', desc: 'newest first' },
};

/** Donations are evidence under federal law: staff read, export and refund them, never
 *  delete. The dashboard holds the list and its order (useDonations). */
export function DonationsTab({ query, sort, onSort, review }: ReturnType<typeof useDonations> & { review?: ReactNode }) {
  return (
    <>
      <PanelHeader title="Donations">
        <ExportButton url={donationsExportUrl} count={query.data?.length ?? 0} name="donations.csv" />
      </PanelHeader>
      <NeedsAttention />
      {review}
      <ScheduleExport />
      <div role="group" aria-label="Sort donations" className="mt-4 flex flex-wrap gap-2">
        {SORTS.map(({ key, label }) => {
          const active = sort.sortBy === key;
          return (
            <button key={key} type="button" aria-pressed={active} className={`btn px-3 ${active ? 'btn-primary' : 'btn-outline'}`} onClick={() => onSort(key)}>
              {label}
              {active && (
                <>
                  <span aria-hidden="true">{sort.sortOrder === 'asc' ? '↑' : '↓'}</span>
                  <span className="sr-only">, {ORDER_WORDS[key][sort.sortOrder]}</span>
                </>
              )}
            </button>
          );
        })}
      </div>
      <ListStatus texts={texts} isPending={query.isPending} error={query.error} items={query.data}>
        {(items) => (
          <CardList>
            {items.map((d) => (
              <DonationCard key={d.id} donation={d} />
            ))}
          </CardList>
        )}
      </ListStatus>
    </>
  );
}

const BADGE: Record<BadgeVariant, string> = {
  default: 'bg-navy text-white',
  secondary: 'bg-slate-200 text-ink',
  destructive: 'bg-crimson text-white',
};

function StatusBadge({ status, variant = statusBadge(status) }: { status: string; variant?: BadgeVariant }) {
  return (
    <span className={`rounded-full px-3 py-1 text-xs font-semibold capitalize ${BADGE[variant]}`} data-variant={variant}>
      {status}
    </span>
  );
}

function DonationCard({ donation: d }: { donation: Donation }) {
  if (d.redactedAt) return <ErasedDonationCard donation={d} />;
  const state = giftState(d);
  const refundable = Number(d.refundable ?? 0) > 0;
  return (
    <Card
      heading={
        <>
          <h3 className="text-lg font-semibold text-ink">
            {formatAmount(d.amount)}
            <span className="font-normal text-slate-700"> from {d.donorName}</span>
          </h3>
          <p className="text-sm break-words text-slate-700">
            <a href={`mailto:${d.donorEmail}`} className="text-navy underline underline-offset-2">
              {d.donorEmail}
            </a>{' '}
            · <RelativeTime iso={d.createdAt} />
          </p>
        </>
      }
      actions={
        <div className="flex flex-wrap items-center gap-3">
          {d.planId != null && (
            <span className="rounded-full bg-gold/30 px-3 py-1 text-xs font-semibold text-ink" title="This gift came from a monthly gift">
              Monthly
            </span>
          )}
          <StatusBadge status={state.badge} variant={state.variant} />
          {refundable && <RefundDialog donation={d} />}
        </div>
      }
    >
      {state.note && <p className="font-semibold text-ink">{state.note}</p>}
      <Detail label="Address">
        {d.donorAddress}, {d.donorCity}, {d.donorState} {d.donorZipCode}
      </Detail>
      {d.citizenshipConfirmed && <p>Citizenship: Confirmed</p>}
      {d.donorOccupation && <Detail label="Occupation">{d.donorOccupation}</Detail>}
      {d.donorEmployer && <Detail label="Employer">{d.donorEmployer}</Detail>}
      {d.contributionPurpose && <Detail label="Purpose">{formatPurpose(d.contributionPurpose)}</Detail>}
    </Card>
  );
}

/** An unpaid gift whose donor's details were removed: what is left is the amount, the
 *  status and when it was made. */
function ErasedDonationCard({ donation: d }: { donation: Donation }) {
  return (
    <Card
      heading={
        <>
          <h3 className="text-lg font-semibold text-ink">
            {formatAmount(d.amount)}
            <span className="font-normal text-slate-700"> from a donor whose details were erased</span>
          </h3>
          <p className="text-sm text-slate-700">
            <RelativeTime iso={d.createdAt} />
          </p>
        </>
      }
      actions={<StatusBadge status={d.status} />}
    >
      <p>
        Details erased <RelativeTime iso={d.redactedAt!} />. The gift was never paid.
      </p>
    </Card>
  );
}
