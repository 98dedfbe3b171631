/**
 * Messages the core sends for the clerk (a refused file, a failure), shown above every screen until dismissed (one by
 * one, or all at once when there are several), or until they are over (a stopped watch that runs again, a refused
 * file put back in the queue).
 */
import { Alert, Button, Group, Stack } from '@mantine/core';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { noticesKey, type NoticeItem } from '../data/use-bridge-event';
import { appText } from './app-text';

const COLORS = { info: 'blue', warning: 'yellow', error: 'red' } as const;

/**
 * Takes away the messages about one file, once what they said is over: "census.csv was refused" no longer holds
 * when the clerk has put that file back in the queue (it goes again as a new file, with messages of its own). The
 * window that put it back takes them away at once; every window does when the core says the file was found again
 * (useLiveUpdates).
 */
export function dropNoticesAbout(client: QueryClient, jobId: number): void {
  client.setQueryData<NoticeItem[]>(noticesKey, (current) => current?.filter((notice) => notice.jobId !== jobId));
}

export function Notices() {
  const client = useQueryClient();
  const { data: notices = [] } = useQuery<NoticeItem[]>({ queryKey: noticesKey, queryFn: () => [], staleTime: Infinity });
  const dismiss = (key: number) => client.setQueryData<NoticeItem[]>(noticesKey, (current = []) => current.filter((n) => n.key !== key));
  return (
    <Stack gap="xs" role="status" aria-label={appText.noticesLabel} mb={notices.length > 0 ? 'md' : 0}>
      {notices.length > 1 && (
        <Group justify="flex-end">
          <Button size="xs" variant="subtle" onClick={() => client.setQueryData<NoticeItem[]>(noticesKey, [])}>{appText.dismissAllNotices}</Button>
        </Group>
      )}
      {notices.map((notice) => (
        <Alert key={notice.key} color={COLORS[notice.level]} withCloseButton closeButtonLabel={appText.dismissNotice}
          onClose={() => dismiss(notice.key)} variant="light">
          {notice.message}
        </Alert>
      ))}
    </Stack>
  );
}
