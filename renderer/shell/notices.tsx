/**
 * Messages the core sends for the clerk (a refused file, a failure), shown above every screen until dismissed (one by
 * one, or all at once when there are several), or until they are over (a stopped watch that runs again, a refused
 * file put back in the queue). The core keeps them (notices.list), so a window opened later shows what was said
 * meanwhile, and a dismissal goes in every window. The newest few are shown; the rest wait their turn.
 */
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { NOTICES_KEPT } from '../../shared/bridge';
import { useBridge } from '../data/bridge-context';
import { dropNotices, noticesKey, useNotices, type NoticeItem, type NoticesState } from '../data/use-bridge-event';
import { appText } from './app-text';

const COLORS = { info: 'blue', warning: 'yellow', error: 'red' } as const;
/** Shown at once: more would push the screen below out of sight. */
export const NOTICES_SHOWN = 5;

/**
 * Takes away the messages about one file, once what they said is over: "census.csv was refused" no longer holds
 * when the clerk has put that file back in the queue (it goes again as a new file, with messages of its own). The
 * window that put it back takes them away at once; the core drops its own and every window follows (noticesGone).
 */
export function dropNoticesAbout(client: QueryClient, jobId: number): void {
  dropNotices(client, (notice) => notice.jobId === jobId);
}

export function Notices() {
  const bridge = useBridge();
  const client = useQueryClient();
  const { run, version, items, leftOut } = useNotices();
  const shown = items.slice(0, NOTICES_SHOWN);
  const hidden = items.length - shown.length;
  // A dismissal the core did not take (it could not be reached): the list as the core holds it shows again.
  const relist = () => void client.invalidateQueries({ queryKey: noticesKey });
  const dismiss = (notice: NoticeItem) => {
    dropNotices(client, (n) => n.key === notice.key);
    if (notice.run !== undefined && notice.id !== undefined) bridge.call('notices.dismiss', { run: notice.run, id: notice.id }).catch(relist);
  };
  const dismissAll = () => {
    client.setQueryData<NoticesState>(noticesKey, (current) => current && { ...current, items: [], leftOut: 0 });
    // Up to the list as shown: a notice said meanwhile is not dismissed unseen.
    if (run !== undefined) bridge.call('notices.dismissAll', { run, upTo: version }).catch(relist);
  };
  return (
    <Stack gap="xs" role="status" aria-label={appText.noticesLabel} mb={items.length > 0 || leftOut > 0 ? 'md' : 0}>
      {(items.length > 1 || leftOut > 0) && (
        <Group justify="flex-end">
          <Button size="xs" variant="subtle" onClick={dismissAll}>{appText.dismissAllNotices}</Button>
        </Group>
      )}
      {shown.map((notice) => (
        <Alert key={notice.key} color={COLORS[notice.level]} withCloseButton closeButtonLabel={appText.dismissNotice}
          onClose={() => dismiss(notice)} variant="light">
          {notice.message}
        </Alert>
      ))}
      {hidden > 0 && <Text size="sm">{appText.hiddenNotices(hidden)}</Text>}
      {leftOut > 0 && <Text size="sm">{appText.leftOutNotices(leftOut, NOTICES_KEPT)}</Text>}
    </Stack>
  );
}
