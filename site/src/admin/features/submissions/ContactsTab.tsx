import { useQuery } from '@tanstack/react-query';
import { Card, CardList } from '../../components/Card';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ExportButton } from '../../components/ExportButton';
import { ListStatus } from '../../components/ListStatus';
import { PanelHeader } from '../../components/PanelHeader';
import { RelativeTime } from '../../components/RelativeTime';
import { type Contact, contacts } from './api';
import { useItemAction } from '../../app/useItemAction';

const texts = {
  loading: 'Loading contact submissions...',
  error: 'Error loading contact submissions',
  empty: 'No contact submissions yet',
};

export function ContactsTab() {
  const query = useQuery(contacts.query());
  const remove = useItemAction(contacts.remove, 'Failed to delete contact submission');
  return (
    <>
      <PanelHeader title="Contact Submissions">
        <ExportButton url={contacts.exportUrl} count={query.data?.length ?? 0} name="contacts.csv" />
      </PanelHeader>
      <ListStatus texts={texts} isPending={query.isPending} error={query.error} items={query.data}>
        {(items) => (
          <CardList>
            {items.map((c) => (
              <ContactCard key={c.id} contact={c} pending={remove.isPending(c.id)} onDelete={() => remove.run(c.id)} />
            ))}
          </CardList>
        )}
      </ListStatus>
    </>
  );
}

function ContactCard({ contact: c, pending, onDelete }: { contact: Contact; pending: boolean; onDelete: () => void }) {
  return (
    <Card
      heading={
        <>
          <h3 className="text-lg font-semibold break-words text-ink">{c.subject}</h3>
          <p className="text-sm break-words text-slate-700">
            {c.name} ·{' '}
            <a href={`mailto:${c.email}`} className="text-navy underline underline-offset-2">
              {c.email}
            </a>{' '}
            · <RelativeTime iso={c.createdAt} />
          </p>
        </>
      }
      actions={
        <ConfirmDialog
          trigger="Delete"
          triggerLabel={`Delete contact submission from ${c.name}`}
          title="Delete contact submission?"
          description={`The message “${c.subject}” from ${c.name} (${c.email}) will be deleted. This cannot be undone.`}
          confirm="Delete"
          onConfirm={onDelete}
          disabled={pending}
        />
      }
    >
      <p className="whitespace-pre-line break-words">{c.message}</p>
    </Card>
  );
}
