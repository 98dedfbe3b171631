/** TanStack Query over the bridge: the query key of a call is [method, request], so a method can be invalidated whole. */
import { useMutation, useQuery, type UseMutationOptions, type UseQueryOptions } from '@tanstack/react-query';
import type { BridgeError, BridgeMethodName, BridgeRequest, BridgeResponse } from '../../shared/bridge';
import { useBridge } from './bridge-context';

export const keyOf = <M extends BridgeMethodName>(method: M, request: BridgeRequest<M>) => [method, request] as const;

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
