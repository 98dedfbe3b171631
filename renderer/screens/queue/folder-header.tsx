/** The watched folder, whether it is being watched, and the button to pause or resume. */
import { Badge, Button, Code, Group, Paper, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import type { FolderState } from '../../../shared/bridge';
import { keyOf, useBridgeMutation, useBridgeQuery } from '../../data/bridge-queries';
import { ErrorAlert } from '../../components/error-alert';
import { queueText } from './queue-text';

const t = queueText.folder;
const COLORS = { watching: 'green', paused: 'yellow', missing: 'red', stopped: 'gray' } as const;

export function FolderHeader() {
  const client = useQueryClient();
  const state = useBridgeQuery('watch.state', {});
  const onSuccess = (next: FolderState) => client.setQueryData(keyOf('watch.state', {}), next);
  const pause = useBridgeMutation('watch.pause', { onSuccess });
  const resume = useBridgeMutation('watch.resume', { onSuccess });
  const start = useBridgeMutation('watch.start', { onSuccess });
  const folder = state.data;
  const failed = pause.error ?? resume.error ?? start.error;

  if (state.error) return <ErrorAlert error={state.error} />;
  if (!folder) return null;
  return (
    <Paper withBorder p="md" mb="md" component="section" aria-labelledby="folder-heading">
      <Group justify="space-between" align="flex-start" gap="sm">
        <Stack gap={6} style={{ flex: '1 1 18rem', minWidth: 0 }}>
          <Group gap="xs">
            <Text fw={600} id="folder-heading">{t.label}</Text>
            {folder.folder && <Badge color={COLORS[folder.state]} variant="light">{t.states[folder.state]}</Badge>}
          </Group>
          {folder.folder ? (
            <>
              <Code style={{ overflowWrap: 'anywhere' }}>{folder.folder}</Code>
              <Text size="sm">{t.help[folder.state]}</Text>
            </>
          ) : (
            <>
              <Text>{t.none}</Text>
              <Text size="sm">{t.noneHelp}</Text>
              <Button component="a" href="#/settings" variant="light" w="fit-content">{t.openSettings}</Button>
            </>
          )}
        </Stack>
        {folder.folder && folder.state === 'watching' && (
          <Button variant="default" loading={pause.isPending} onClick={() => pause.mutate({})}>{t.pause}</Button>
        )}
        {folder.folder && folder.state === 'paused' && (
          <Button loading={resume.isPending} onClick={() => resume.mutate({})}>{t.resume}</Button>
        )}
        {folder.folder && folder.state === 'stopped' && (
          <Button loading={start.isPending} onClick={() => start.mutate({})}>{t.start}</Button>
        )}
      </Group>
      {failed && <ErrorAlert error={failed} />}
    </Paper>
  );
}
