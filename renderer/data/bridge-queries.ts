/** TanStack Query over the bridge: the query key of a call is [method, request], so a method can be invalidated whole. */
import { useMutation, useQuery, type QueryClient, type UseMutationOptions, type UseQueryOptions } from '@tanstack/react-query';
import type { BridgeError, BridgeMethodName, BridgeRequest, BridgeResponse } from '../../shared/bridge';
import { useBridge } from './bridge-context';

export const keyOf = <M extends BridgeMethodName>(method: M, request: BridgeRequest<M>) => [method, request] as const;

/**
 * Puts what the core just said of a call (an event's state, the result of a change) into the cache as its answer. A
 * fetch of that call may be under way, answered before the change: in browser mode its answer and the event come on
 * different connections, so it could land after and put the old value back (a tab shown again refetched the folder
 * state, the watch was paused meanwhile, and the tab went on saying Watching). That fetch is cancelled, so the value
 * stays the one put here; a later change comes as another event or answer.
 */
export function putAnswer<M extends BridgeMethodName>(client: QueryClient, method: M, request: BridgeRequest<M>, answer: BridgeResponse<M>): void {
  const queryKey = keyOf(method, request);
  client.setQueryData(queryKey, answer);
  // Cancelled with `revert` (the default): the query goes back to the value just put, not to where the fetch began.
  void client.cancelQueries({ queryKey, exact: true });
}

export function useBridgeQuery<M extends BridgeMethodName>(
  method: M,
  request: BridgeRequest<M>,
  options: Omit<UseQueryOptions<BridgeResponse<M>, BridgeError>, 'queryKey' | 'queryFn'> = {},
) {
  const bridge = useBridge();
  return useQuery<BridgeResponse<M>, BridgeError>({
    queryKey: keyOf(method, request),
    queryFn: () => bridge.call(method, request),
    ...options,
  });
}

export function useBridgeMutation<M extends BridgeMethodName>(
  method: M,
  options: Omit<UseMutationOptions<BridgeResponse<M>, BridgeError, BridgeRequest<M>>, 'mutationFn'> = {},
) {
  const bridge = useBridge();
  return useMutation<BridgeResponse<M>, BridgeError, BridgeRequest<M>>({
    mutationFn: (request) => bridge.call(method, request),
    ...options,
  });
}
