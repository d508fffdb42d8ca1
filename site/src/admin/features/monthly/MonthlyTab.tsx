// Monthly gifts: each plan's donor, amount, status, next charge and what it has given, with
// Cancel (a reason is required; the donor is told by e-mail) and a CSV export. Each charge is
// also a gift on the Donations tab, marked as monthly.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { toast } from '../../../lib/toast';
import { Card, CardList, Detail } from '../../components/Card';
import { formatDay, formatExact } from '../../components/dates';
import { ExportButton } from '../../components/ExportButton';
import { FormDialog } from '../../components/FormDialog';
import { ListStatus } from '../../components/ListStatus';
import { formatAmount } from '../../components/money';
import { PanelHeader } from '../../components/PanelHeader';
import { RelativeTime } from '../../components/RelativeTime';
import { type Plan, cancelPlan, plansExportUrl, plansQuery, statusLabel } from './api';

const texts = {
  loading: 'Loading monthly gifts...',
  error: 'Error loading monthly gifts',
  empty: 'No monthly gifts yet',
};

const BADGE: Record<Plan['status'], string> = {
  active: 'bg-navy text-white',
  retrying: 'bg-gold text-ink',
  paused: 'bg-slate-200 text-ink',
  inactive: 'bg-crimson text-white',
  canceled: 'bg-slate-200 text-ink',
};

export function MonthlyTab() {
  const query = useQuery(plansQuery());
  return (
    <>
      <PanelHeader title="Monthly Gifts">
        <ExportButton url={plansExportUrl} count={query.data?.length ?? 0} name="monthly-gifts.csv" />
      </PanelHeader>
      <ListStatus texts={texts} isPending={query.isPending} error={query.error} items={query.data}>
        {(items) => (
          <CardList>
            {items.map((plan) => (
              <PlanCard key={plan.id} plan={plan} />
            ))}
          </CardList>
        )}
      </ListStatus>
    </>
  );
}

function PlanCard({ plan: p }: { plan: Plan }) {
  const ended = p.status === 'canceled';
  return (
    <Card
      heading={
        <>
          <h3 className="text-lg font-semibold text-ink">
            {formatAmount(p.amount)} a month
            <span className="font-normal text-slate-700"> from {p.donorName}</span>
          </h3>
          <p className="text-sm break-words text-slate-700">
            <a href={`mailto:${p.donorEmail}`} className="text-navy underline underline-offset-2">
              {p.donorEmail}
            </a>{' '}
            · started <RelativeTime iso={p.createdAt} />
          </p>
        </>
      }
      actions={
        <div className="flex flex-wrap items-center gap-3">
          <span className={`rounded-full px-3 py-1 text-xs font-semibold ${BADGE[p.status]}`}>{statusLabel(p)}</span>
          {!ended && <CancelPlan plan={p} />}
        </div>
      }
    >
      {p.nextChargeAt && !ended && <Detail label={p.status === 'retrying' ? 'Next try' : 'Next charge'}>{formatExact(p.nextChargeAt)}</Detail>}
      {p.status === 'paused' && p.pausedUntil && <Detail label="Resumes">{formatDay(p.pausedUntil)}</Detail>}
      <Detail label="Total given">
        {formatAmount(p.totalGiven)} in {p.gifts} {p.gifts === 1 ? 'gift' : 'gifts'}
      </Detail>
      {p.lastError && !ended && <Detail label="Last problem">{p.lastError}</Detail>}
      {ended && p.canceledAt && (
        <Detail label="Canceled">
          {formatDay(p.canceledAt)} by {p.canceledBy === 'donor' ? 'the donor' : 'staff'}
          {p.cancelReason && p.canceledBy === 'staff' ? `: ${p.cancelReason}` : ''}
        </Detail>
      )}
    </Card>
  );
}

function CancelPlan({ plan: p }: { plan: Plan }) {
  const id = useId();
  const qc = useQueryClient();
  const [reason, setReason] = useState('');
  const cancel = useMutation(cancelPlan(qc));
  return (
    <FormDialog
      trigger="Cancel"
      triggerLabel={`Cancel the monthly gift of ${formatAmount(p.amount)} from ${p.donorName}`}
      title="Cancel a monthly gift"
      description={`No more gifts of ${formatAmount(p.amount)} will be charged to ${p.donorName}'s card, starting now. They will get an e-mail saying so. Gifts already made stay as they are.`}
      submit="Cancel the monthly gift"
      pending="Canceling..."
      ready={reason.trim() !== ''}
      failure="The monthly gift could not be canceled. Please try again."
      onSubmit={async () => {
        await cancel.mutateAsync({ id: p.id, reason: reason.trim() });
        toast({ title: 'Monthly gift canceled', description: `${p.donorName} will get an e-mail.` });
      }}
      onClosed={() => setReason('')}
    >
      {(problem) => (
        <>
          <label htmlFor={`${id}-reason`} className="field-label">
            Reason
          </label>
          <textarea
            id={`${id}-reason`}
            required
            maxLength={500}
            rows={3}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            aria-invalid={problem.invalid}
            aria-describedby={problem.describedBy}
            className="field-input"
          />
        </>
      )}
    </FormDialog>
  );
}
