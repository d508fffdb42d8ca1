// People: one row per supporter (everything they sent us, joined by their address), found by
// name, e-mail or phone; each opens the person's page with one timeline.
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { Card, CardList, Detail } from '../../components/Card';
import { ListStatus } from '../../components/ListStatus';
import { PanelHeader } from '../../components/PanelHeader';
import { RelativeTime } from '../../components/RelativeTime';
import { useDebounced } from '../../components/useDebounced';
import { activities, peopleQuery, type PersonRow } from './api';

/** How long typing must pause before the list is searched. */
const SEARCH_DELAY_MS = 300;

export function PeopleTab() {
  const id = useId();
  const [typed, setTyped] = useState('');
  const [page, setPage] = useState(0);
  const q = useDebounced(typed.trim(), SEARCH_DELAY_MS);
  const query = useQuery(peopleQuery(q, page));
  const data = query.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  const texts = {
    loading: 'Loading people...',
    error: 'Error loading people',
    empty: q ? 'No one matches that search' : 'No people yet',
  };
  return (
    <>
      <PanelHeader title="People" />
      <div className="mt-4 max-w-md">
        <label htmlFor={`${id}-q`} className="field-label">
          Search by name, e-mail or phone
        </label>
        <input
          id={`${id}-q`}
          type="search"
          maxLength={200}
          autoComplete="off"
          value={typed}
          onChange={(e) => {
            setTyped(e.target.value);
            setPage(0);
          }}
          className="field-input"
        />
      </div>
      {data && (
        <p role="status" className="mt-3 text-sm text-slate-700">
          {data.total === 1 ? '1 person' : `${data.total} people`}
        </p>
      )}
      <ListStatus texts={texts} isPending={query.isPending} error={query.error} items={data?.people}>
        {(items) => (
          <CardList>
            {items.map((person) => (
              <PersonCard key={person.id} person={person} />
            ))}
          </CardList>
        )}
      </ListStatus>
      {pages > 1 && (
        <nav aria-label="People pages" className="mt-6 flex flex-wrap items-center gap-3">
          {page > 0 && (
            <button type="button" className="btn btn-outline" onClick={() => setPage(page - 1)}>
              Previous
            </button>
          )}
          <span className="text-sm text-slate-700">
            Page {page + 1} of {pages}
          </span>
          {page + 1 < pages && (
            <button type="button" className="btn btn-outline" onClick={() => setPage(page + 1)}>
              Next
            </button>
          )}
        </nav>
      )}
    </>
  );
}

function PersonCard({ person: p }: { person: PersonRow }) {
  const name = p.name ?? p.emails[0];
  return (
    <Card
      heading={
        <>
          <h3 className="text-lg font-semibold text-ink">
            <Link to={`/admin/person/${p.id}`} className="text-navy underline underline-offset-2">
              {name}
            </Link>
          </h3>
          <p className="text-sm break-words text-slate-700">
            {p.emails.join(', ')} · last seen <RelativeTime iso={p.lastSeen} />
          </p>
        </>
      }
      actions={
        <ul aria-label="What they have done" className="flex flex-wrap gap-2">
          {activities(p).map((a) => (
            <li key={a} className="rounded-full bg-navy/10 px-3 py-1 text-xs font-semibold text-navy">
              {a}
            </li>
          ))}
        </ul>
      }
    >
      {p.phone && <Detail label="Phone">{p.phone}</Detail>}
    </Card>
  );
}
