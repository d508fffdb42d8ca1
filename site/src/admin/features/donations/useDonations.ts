// The donation list in the order the admin chose. The dashboard holds it (its tab count
// reads the same list) and hands it to the Donations tab; the order starts again, newest
// first, each time the dashboard opens. Asked for only when the role opens the tab.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { donationsQuery } from './api';
import { DEFAULT_SORT, type SortKey, nextSort } from './format';

export function useDonations(enabled = true) {
  const [sort, setSort] = useState(DEFAULT_SORT);
  const query = useQuery({ ...donationsQuery(sort), enabled });
  return { query, sort, onSort: (key: SortKey) => setSort((s) => nextSort(s, key)) };
}
