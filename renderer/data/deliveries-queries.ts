/** Data of the Deliveries screen: the service's delivery audit, one attempt, and redelivery (local server only). */
import { useQueryClient } from '@tanstack/react-query';
import type { BridgeRequest } from '../../shared/bridge';
import { useBridgeMutation, useBridgeQuery } from './bridge-queries';

export type DeliveriesFilter = BridgeRequest<'deliveries.list'>;

/** How often the list refreshes while the screen is open and auto-refresh is on. */
export const DELIVERIES_REFRESH_MS = 3000;

export function useDeliveries(filter: DeliveriesFilter, autoRefresh: boolean) {
  return useBridgeQuery('deliveries.list', filter, {
    staleTime: 0,
    refetchInterval: autoRefresh ? DELIVERIES_REFRESH_MS : false,
    placeholderData: (previous) => previous,
  });
}

export function useDelivery(id: number | undefined, autoRefresh: boolean) {
  return useBridgeQuery('deliveries.get', { id: id ?? 0 }, {
    enabled: id !== undefined,
    staleTime: 0,
    // A pending attempt gets its answer within seconds; follow it while the detail is open.
    refetchInterval: (query) => (autoRefresh && query.state.data?.status === 1 ? DELIVERIES_REFRESH_MS : false),
  });
}

export function useRedeliver() {
  const client = useQueryClient();
  return useBridgeMutation('deliveries.redeliver', {
    onSettled: () => client.invalidateQueries({ queryKey: ['deliveries.list'] }),
  });
}

/**
 * Redelivery is a local test server feature: offered while the Local test server environment is the active one,
 * whichever local server it names (the one built into the app, or one run on its own): the core asks that server.
 */
export function useIsLocalMode(): boolean {
  const settings = useBridgeQuery('settings.get', {});
  return settings.data?.settings.activeProfile === 'local';
}
