/**
 * Finished files in windows of 100, fetched only for the rows in view: with 10,000 files the screen asks for one or two
 * windows, not the whole history.
 */
import { keepPreviousData, useQueries, useQuery } from '@tanstack/react-query';
import type { JobQuery, JobView, JobWindow } from '../../../shared/bridge';
import { useBridge } from '../../data/bridge-context';

export const PAGE_SIZE = 100;

export const historyKey = (query: Omit<JobQuery, 'offset' | 'limit'>, page: number) => ['history', 'jobs', query, page] as const;

export function useJobTotal(query: Omit<JobQuery, 'offset' | 'limit'>) {
  const bridge = useBridge();
  return useQuery<JobWindow>({
    queryKey: historyKey(query, 0),
    queryFn: () => bridge.call('jobs.query', { ...query, offset: 0, limit: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
}

/** The rows of the given index range, undefined where their window is still on its way. */
export function useJobRows(query: Omit<JobQuery, 'offset' | 'limit'>, first: number, last: number) {
  const bridge = useBridge();
  const pages: number[] = [];
  if (last >= first) for (let p = Math.floor(first / PAGE_SIZE); p <= Math.floor(last / PAGE_SIZE); p += 1) pages.push(p);
  const results = useQueries({
    queries: pages.map((page) => ({
      queryKey: historyKey(query, page),
      queryFn: () => bridge.call('jobs.query', { ...query, offset: page * PAGE_SIZE, limit: PAGE_SIZE }),
    })),
  });
  return (index: number): JobView | undefined => {
    const at = pages.indexOf(Math.floor(index / PAGE_SIZE));
    return at < 0 ? undefined : results[at]?.data?.items[index % PAGE_SIZE];
  };
}
