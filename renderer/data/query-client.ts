/** The one TanStack Query client of the app: every screen reads the core through it. */
import { QueryClient } from '@tanstack/react-query';
import { BridgeError } from '../../shared/bridge';

/** Errors that another try cannot fix: the request or the state is wrong, not the network. */
const FINAL_CODES = new Set(['invalid_argument', 'not_found', 'unsupported', 'not_configured', 'conflict', 'unknown_method', 'unauthorized']);

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // The core pushes changes as events, so data is fresh until an event or a mutation says otherwise.
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: (failures, error) => failures < 2 && !(error instanceof BridgeError && FINAL_CODES.has(error.code)),
      },
      mutations: { retry: false },
    },
  });
}
