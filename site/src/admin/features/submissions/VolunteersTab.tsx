import { useQuery } from '@tanstack/react-query';
import { Card, CardList, Detail } from '../../components/Card';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ExportButton } from '../../components/ExportButton';
import { ListStatus } from '../../components/ListStatus';
import { PanelHeader } from '../../components/PanelHeader';
import { RelativeTime } from '../../components/RelativeTime';
import { type Volunteer, volunteers } from './api';
import { useItemAction } from '../../app/useItemAction';

const texts = {
  loading: 'Loading volunteer signups...',
  error: 'Error loading volunteer signups',
  empty: 'No volunteer signups yet',
};

export function VolunteersTab() {
  const query = useQuery(volunteers.query());
  const remove = useItemAction(volunteers.remove, 'Failed to delete volunteer signup');
  return (
    <>
      <PanelHeader title="Volunteer Signups">
        <ExportButton url={volunteers.exportUrl} count={query.data?.length ?? 0} name="volunteers.csv" />
      </PanelHeader>
      <ListStatus texts={texts} isPending={query.isPending} error={query.error} items={query.data}>
        {(items) => (
          <CardList>
            {items.map((v) => (
              <VolunteerCard key={v.id} volunteer={v} pending={remove.isPending(v.id)} onDelete={() => remove.run(v.id)} />
            ))}
          </CardList>
        )}
      </ListStatus>
    </>
  );
}

function VolunteerCard({ volunteer: v, pending, onDelete }: { volunteer: Volunteer; pending: boolean; onDelete: () => void }) {
  return (
    <Card
      heading={
        <>
          <h3 className="text-lg font-semibold break-words text-ink">{v.name}</h3>
          <p className="text-sm break-words text-slate-700">
            <a href={`mailto:${v.email}`} className="text-navy underline underline-offset-2">
              {v.email}
            </a>{' '}
            · <RelativeTime iso={v.createdAt} />
          </p>
        </>
      }
      actions={
        <ConfirmDialog
          trigger="Delete"
          triggerLabel={`Delete volunteer signup of ${v.name}`}
          title="Delete volunteer signup?"
          description={`The volunteer signup of ${v.name} (${v.email}) will be deleted. This cannot be undone.`}
          confirm="Delete"
          onConfirm={onDelete}
          disabled={pending}
        />
      }
    >
      {v.phone && <Detail label="Phone">{v.phone}</Detail>}
      <Detail label="ZIP">{v.zipCode}</Detail>
      {v.interests && <Detail label="Areas of Interest">{v.interests}</Detail>}
    </Card>
  );
}
