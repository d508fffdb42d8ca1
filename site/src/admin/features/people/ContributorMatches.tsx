// Contributors who may be one person ("Jon Smith" and "Jonathan Smith" at one address): the
// server never combines them on its own. The treasurer answers each pair: Yes, one person
// (their gifts count under one limit from now on), or No, two people (the pair is hidden).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../../lib/api';
import { toast } from '../../../lib/toast';
import { isUnauthorized } from '../../app/client';
import { type ContributorMatch, decideMatch, matchesQuery } from './api';

export function ContributorMatches() {
  const query = useQuery(matchesQuery());
  const pairs = query.data ?? [];
  if (pairs.length === 0) return null;
  return (
    <section aria-labelledby="contributor-matches" className="mt-6 rounded-xl border border-gold bg-gold/10 p-5">
      <h3 id="contributor-matches" className="text-lg font-semibold text-ink">
        Contributors to review ({pairs.length})
      </h3>
      <p className="mt-1 text-sm text-slate-700">The federal limit counts each person once. These may be one person: say whether they are.</p>
      <ul className="mt-3 space-y-3">
        {pairs.map((m) => (
          <Pair key={`${m.a.contributor}-${m.b.contributor}`} match={m} />
        ))}
      </ul>
    </section>
  );
}

function Pair({ match: m }: { match: ContributorMatch }) {
  const qc = useQueryClient();
  const decide = useMutation(decideMatch(qc));
  // Told through the mutation's own promise: once answered, the pair leaves the list and this
  // row unmounts, and a callback given to mutate() would never run.
  const answer = async (same: boolean) => {
    try {
      await decide.mutateAsync({ a: m.a.contributor, b: m.b.contributor, same });
      toast({ title: same ? 'Combined as one person' : 'Kept as two people' });
    } catch (error) {
      if (!isUnauthorized(error)) {
        toast({ variant: 'destructive', title: 'Not saved', description: error instanceof ApiError ? error.message : 'Please try again.' });
      }
    }
  };
  const label = `${m.a.name} and ${m.b.name}`;
  return (
    <li className="rounded-lg bg-white p-4">
      <p className="text-ink">
        <strong>{m.a.name}</strong>, {m.a.address} ({m.a.gifts === 1 ? '1 gift' : `${m.a.gifts} gifts`})
      </p>
      <p className="text-ink">
        <strong>{m.b.name}</strong>, {m.b.address} ({m.b.gifts === 1 ? '1 gift' : `${m.b.gifts} gifts`})
      </p>
      <p className="mt-1 text-sm text-slate-700">Why: {m.why}</p>
      <div className="mt-3 flex flex-wrap gap-3">
        <button type="button" className="btn btn-primary" disabled={decide.isPending} aria-label={`Yes, ${label} are one person`} onClick={() => answer(true)}>
          Yes, one person
        </button>
        <button type="button" className="btn btn-outline" disabled={decide.isPending} aria-label={`No, ${label} are two people`} onClick={() => answer(false)}>
          No, two people
        </button>
      </div>
    </li>
  );
}
