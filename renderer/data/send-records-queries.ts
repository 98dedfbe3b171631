/** Data of the Send records screen: sending a batch over the bridge. */
import { useQueryClient } from '@tanstack/react-query';
import { useBridgeMutation } from './bridge-queries';

/** Sends a census or receipt batch; the batch list (History) refreshes after every answer. */
export function useSendBatch() {
  const client = useQueryClient();
  return useBridgeMutation('batches.send', {
    onSettled: () => client.invalidateQueries({ queryKey: ['batches.list'] }),
  });
}
