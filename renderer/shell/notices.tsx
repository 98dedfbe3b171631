/** Messages the core sends for the clerk (a refused file, a failure), shown above every screen until dismissed. */
import { Alert, Stack } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { noticesKey, type NoticeItem } from '../data/use-bridge-event';
import { appText } from './app-text';

const COLORS = { info: 'blue', warning: 'yellow', error: 'red' } as const;

export function Notices() {
  const client = useQueryClient();
  const { data: notices = [] } = useQuery<NoticeItem[]>({ queryKey: noticesKey, queryFn: () => [], staleTime: Infinity });
  const dismiss = (key: number) => client.setQueryData<NoticeItem[]>(noticesKey, (current = []) => current.filter((n) => n.key !== key));
  return (
    <Stack gap="xs" role="status" aria-label={appText.noticesLabel} mb={notices.length > 0 ? 'md' : 0}>
      {notices.map((notice) => (
        <Alert key={notice.key} color={COLORS[notice.level]} withCloseButton closeButtonLabel={appText.dismissNotice}
          onClose={() => dismiss(notice.key)} variant="light">
          {notice.message}
        </Alert>
      ))}
    </Stack>
  );
}
