import { useQuery } from '@tanstack/react-query';
import { Card, CardList, Detail } from '../../components/Card';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ExportButton } from '../../components/ExportButton';
import { ListStatus } from '../../components/ListStatus';
import { PanelHeader } from '../../components/PanelHeader';
import { RelativeTime } from '../../components/RelativeTime';
import { type NewsletterSignup, newsletters } from './api';
import { useItemAction } from '../../app/useItemAction';

const texts = {
  loading: 'Loading newsletter signups...',
  error: 'Error loading newsletter signups',
  empty: 'No newsletter signups yet',
};

export function NewsletterTab() {
  const query = useQuery(newsletters.query());
  const remove = useItemAction(newsletters.remove, 'Failed to delete newsletter signup');
  return (
    <>
      <PanelHeader title="Newsletter Signups">
        <ExportButton url={newsletters.exportUrl} count={query.data?.length ?? 0} name="newsletters.csv" />
      </PanelHeader>
      <ListStatus texts={texts} isPending={query.isPending} error={query.error} items={query.data}>
        {(items) => (
          <CardList>
            {items.map((n) => (
              <SignupCard key={n.id} signup={n} pending={remove.isPending(n.id)} onDelete={() => remove.run(n.id)} />
            ))}
          </CardList>
        )}
      </ListStatus>
    </>
  );
}

function SignupCard({ signup: n, pending, onDelete }: { signup: NewsletterSignup; pending: boolean; onDelete: () => void }) {
  return (
    <Card
      heading={
        <>
          <h3 className="text-lg font-semibold break-words text-ink">{n.email}</h3>
          <p className="text-sm text-slate-700">
            <RelativeTime iso={n.createdAt} />
          </p>
        </>
      }
      actions={
        <ConfirmDialog
          trigger="Delete"
          triggerLabel={`Delete newsletter signup of ${n.email}`}
          title="Delete newsletter signup?"
          description={`The newsletter signup of ${n.email} will be deleted. This cannot be undone.`}
          confirm="Delete"
          onConfirm={onDelete}
          disabled={pending}
        />
      }
    >
      {n.phone && <Detail label="Phone">{n.phone}</Detail>}
      <p>ZIP: {n.zipCode}</p>
    </Card>
  );
}
