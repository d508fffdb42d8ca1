// One tab for each of the three submission lists (contacts, volunteers, newsletter signups):
// the list's heading and export, its four states, and a card per submission with a Delete
// that asks first. What differs between the lists is in their descriptions (lists.tsx).
import { useQuery } from '@tanstack/react-query';
import { Fragment, type ReactNode } from 'react';
import { useItemAction } from '../../app/useItemAction';
import { Card, CardList } from '../../components/Card';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ExportButton } from '../../components/ExportButton';
import { ListStatus, type ListTexts } from '../../components/ListStatus';
import { PanelHeader } from '../../components/PanelHeader';
import type { ListResource } from './api';

/** What one list shows and says. */
export interface SubmissionList<T extends { id: number }> {
  resource: ListResource<T>;
  /** The tab's heading ("Contact Submissions"). */
  title: string;
  texts: ListTexts;
  /** The export's file name when the server gives none. */
  exportName: string;
  /** The toast's title when a delete fails. */
  deleteFailure: string;
  /** A card's heading. */
  heading: (item: T) => string;
  /** The line under it, its parts joined by " · ". */
  byline: (item: T) => ReactNode[];
  /** The card's details. */
  details: (item: T) => ReactNode;
  /** The Delete button's accessible name, and the question the dialog asks. */
  deletion: (item: T) => { label: string; title: string; description: string };
  /** Actions beside Delete, where a list has them. */
  actions?: (item: T) => ReactNode;
}

export function SubmissionsTab<T extends { id: number }>({ list }: { list: SubmissionList<T> }) {
  const query = useQuery(list.resource.query());
  const remove = useItemAction(list.resource.remove, list.deleteFailure);
  return (
    <>
      <PanelHeader title={list.title}>
        <ExportButton url={list.resource.exportUrl} count={query.data?.length ?? 0} name={list.exportName} />
      </PanelHeader>
      <ListStatus texts={list.texts} isPending={query.isPending} error={query.error} items={query.data}>
        {(items) => (
          <CardList>
            {items.map((item) => (
              <SubmissionCard key={item.id} list={list} item={item} pending={remove.isPending(item.id)} onDelete={() => remove.run(item.id)} />
            ))}
          </CardList>
        )}
      </ListStatus>
    </>
  );
}

interface CardProps<T extends { id: number }> {
  list: SubmissionList<T>;
  item: T;
  pending: boolean;
  onDelete: () => void;
}

function SubmissionCard<T extends { id: number }>({ list, item, pending, onDelete }: CardProps<T>) {
  const deletion = list.deletion(item);
  return (
    <Card
      heading={
        <>
          <h3 className="text-lg font-semibold break-words text-ink">{list.heading(item)}</h3>
          <p className="text-sm break-words text-slate-700">
            {list.byline(item).map((part, i) => (
              <Fragment key={i}>
                {i > 0 && ' · '}
                {part}
              </Fragment>
            ))}
          </p>
        </>
      }
      actions={
        <div className="flex flex-wrap gap-2">
          {list.actions?.(item)}
          <ConfirmDialog
            trigger="Delete"
            triggerLabel={deletion.label}
            title={deletion.title}
            description={deletion.description}
            confirm="Delete"
            onConfirm={onDelete}
            disabled={pending}
          />
        </div>
      }
    >
      {list.details(item)}
    </Card>
  );
}
