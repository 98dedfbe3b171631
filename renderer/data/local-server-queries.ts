/** Data of the Local server screen: its state, client credentials, webhook, request log and fault rules. */
import { useQueryClient } from '@tanstack/react-query';
import { putAnswer, useBridgeMutation, useBridgeQuery } from './bridge-queries';

/** How often the request log refreshes while the screen is open. */
export const REQUEST_LOG_REFRESH_MS = 3000;

export const useLocalServerState = () => useBridgeQuery('localServer.state', {});

/** Start and stop answer the new state; settings (the Local profile's address) and everything local follow it. */
function useStateChange(method: 'localServer.start' | 'localServer.stop') {
  const client = useQueryClient();
  return useBridgeMutation(method, {
    onSuccess: (state) => {
      putAnswer(client, 'localServer.state', {}, state);
      void client.invalidateQueries({ predicate: (q) => {
        const [name] = q.queryKey as [string];
        return name.startsWith('localServer.') && name !== 'localServer.state' || name === 'settings.get' || name.startsWith('credentials.');
      } });
    },
  });
}
export const useStartLocalServer = () => useStateChange('localServer.start');
export const useStopLocalServer = () => useStateChange('localServer.stop');

export const useLocalCredentials = (running: boolean) =>
  useBridgeQuery('localServer.credentials', {}, { enabled: running, staleTime: Infinity });

export const useWebhook = (running: boolean) => useBridgeQuery('localServer.webhook.get', {}, { enabled: running });

export function useSetWebhook() {
  const client = useQueryClient();
  return useBridgeMutation('localServer.webhook.set', {
    onSuccess: ({ secret: _shownOnce, ...view }) => {
      putAnswer(client, 'localServer.webhook.get', {}, view);
      void client.invalidateQueries({ queryKey: ['localServer.state'] });
    },
  });
}

export const useRequestLog = (running: boolean, limit: number) =>
  useBridgeQuery('localServer.requestLog', { limit }, {
    enabled: running, staleTime: 0, refetchInterval: running ? REQUEST_LOG_REFRESH_MS : false, placeholderData: (previous) => previous,
  });

export const useFaults = (running: boolean) => useBridgeQuery('localServer.faults.list', {}, { enabled: running });

function useFaultChange(method: 'localServer.faults.set' | 'localServer.faults.clear') {
  const client = useQueryClient();
  return useBridgeMutation(method, {
    onSuccess: (answer) => putAnswer(client, 'localServer.faults.list', {}, answer),
  });
}
export const useSetFaults = () => useFaultChange('localServer.faults.set');
export const useClearFaults = () => useFaultChange('localServer.faults.clear');
