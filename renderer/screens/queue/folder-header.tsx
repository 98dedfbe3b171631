/**
 * The watched folder, whether it is being watched and why not, and the button to pause, resume or start. An
 * environment that cannot take files (no service address, or the built-in test server stopped) leaves the folder
 * unwatched and a file saved there unqueued, so the header says why, as the core says it with the folder's state, and
 * where to put it right rather than only "Not watching". While every file is held for the client's credentials or its
 * permission to upload, as the core says with the folder's state until it is over, the header says that instead of
 * promising uploads that do not happen: also once the clerk dismissed the notice that told of it.
 */
import { Badge, Box, Button, Code, Group, Paper, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { FolderState } from '../../../shared/bridge';
import { PROFILE_TITLES } from '../../../shared/settings.schema';
import { putAnswer, useBridgeMutation, useBridgeQuery } from '../../data/bridge-queries';
import { useNotices, type NoticeItem } from '../../data/use-bridge-event';
import { ErrorAlert } from '../../components/error-alert';
import { useAnnouncer } from '../../components/live-announcer';
import { FOCUS_FALLBACK } from '../../components/focus-fallback';
import { queueText } from './queue-text';

const t = queueText.folder;
const COLORS = { watching: 'green', paused: 'yellow', missing: 'red', unreadable: 'red', stopped: 'gray' } as const;

/** Why nothing is picked up, and the link to the screen where the clerk puts it right. */
function NoService({ noService }: { noService: NonNullable<FolderState['noService']> }) {
  const fix = noService.reason === 'builtInServerStopped'
    ? { text: t.builtInServerStopped, href: '#/local-server', link: t.openLocalServer }
    : { text: t.noAddress(PROFILE_TITLES[noService.profile]), href: '#/settings', link: t.openSettings };
  return (
    <>
      <Text size="sm">{fix.text}</Text>
      <Button component="a" href={fix.href} variant="light" w="fit-content">{fix.link}</Button>
    </>
  );
}

type Held = NonNullable<FolderState['held']>;

/** The ends of the core's lasting notices that tell what holds every file (see NoticeEnd). */
const NOTICE_OF: Record<Held, NoticeItem['until']> = { credentials: 'credentials-accepted', scope: 'scope-given' };

/**
 * The state's help with no promise of an upload in it (a missing or unreadable folder's says none), then what holds
 * the files and, for the credentials, the way to Settings. Whether they are held is the core's to say (the folder's
 * state): the notice that told of it only decides whether the words point to it, as the clerk may have dismissed it.
 */
function HeldFiles({ state, held }: { state: FolderState['state']; held: Held }) {
  const help = state === 'missing' || state === 'unreadable' ? t.help[state] : t.held.help[state];
  const noticeShown = useNotices().items.some((notice) => notice.until === NOTICE_OF[held]);
  return (
    <>
      <Text size="sm">{help}</Text>
      <Text size="sm">{noticeShown ? t.held[held].message : t.held[held].alone}</Text>
      {held === 'credentials' && <Button component="a" href="#/settings" variant="light" w="fit-content">{t.openSettings}</Button>}
    </>
  );
}

/**
 * The folder's new state, said once to a screen reader when it changes (Pause pressed, the folder gone missing): the
 * badge that shows it is no live region, and the button's new words are not read out while it keeps the focus. Not
 * said when the screen opens: the state was not news then.
 */
function StateNews({ folder }: { folder: FolderState }) {
  const { announce, region } = useAnnouncer('polite');
  const said = useRef(folder.state);
  useEffect(() => {
    if (folder.state === said.current) return;
    said.current = folder.state;
    announce(t.nowState(t.states[folder.state]));
  }, [folder.state, announce]);
  return region;
}

export function FolderHeader() {
  const client = useQueryClient();
  const state = useBridgeQuery('watch.state', {});
  const onSuccess = (next: FolderState) => putAnswer(client, 'watch.state', {}, next);
  const pause = useBridgeMutation('watch.pause', { onSuccess });
  const resume = useBridgeMutation('watch.resume', { onSuccess });
  const start = useBridgeMutation('watch.start', { onSuccess });
  const folder = state.data;

  if (state.error) return <ErrorAlert error={state.error} />;
  if (!folder) return null;
  // A failure is told while the button it came from is there: once the folder is watched (the address set in
  // Settings), "Watching did not start" no longer holds.
  const failure = (folder.state === 'watching' && pause.error && { error: pause.error, title: t.pauseFailed })
    || (folder.state === 'paused' && resume.error && { error: resume.error, title: t.resumeFailed })
    || (folder.state === 'stopped' && start.error && { error: start.error, title: t.startFailed })
    || undefined;
  // One button whose words and action follow the state: pressed, Pause becomes Resume in place and keeps the keyboard
  // focus (two buttons swapped one for the other, and the focus fell to the page).
  const watchButton = folder.state === 'watching' ? { label: t.pause, action: pause, variant: 'default' }
    : folder.state === 'paused' ? { label: t.resume, action: resume, variant: undefined }
      : folder.state === 'stopped' ? { label: t.start, action: start, variant: undefined }
        : undefined;
  // Whatever the state: paused, "files already on their way finish" would not hold either (Resume fails, saying so).
  const { noService, held } = folder;
  return (
    // The button goes while the folder is missing: the focus it had goes to the section, which says why.
    <Paper withBorder p="md" mb="md" component="section" aria-labelledby="folder-heading" {...FOCUS_FALLBACK}>
      <Group justify="space-between" align="flex-start" gap="sm">
        <Stack gap={6} style={{ flex: '1 1 18rem', minWidth: 0 }}>
          <Group gap="xs">
            <Text fw={600} id="folder-heading">{t.label}</Text>
            {folder.folder && <Badge color={COLORS[folder.state]} variant="light">{t.states[folder.state]}</Badge>}
          </Group>
          {folder.folder ? (
            <>
              <Code style={{ overflowWrap: 'anywhere' }}>{folder.folder}</Code>
              {noService ? <NoService noService={noService} />
                : held ? <HeldFiles state={folder.state} held={held} />
                  : <Text size="sm">{t.help[folder.state]}</Text>}
            </>
          ) : (
            <>
              <Text>{t.none}</Text>
              <Text size="sm">{t.noneHelp}</Text>
              <Button component="a" href="#/settings" variant="light" w="fit-content">{t.openSettings}</Button>
            </>
          )}
        </Stack>
        {folder.folder && watchButton && (
          <Button variant={watchButton.variant} loading={watchButton.action.isPending} onClick={() => watchButton.action.mutate({})}>
            {watchButton.label}
          </Button>
        )}
      </Group>
      {failure && <Box mt="sm"><ErrorAlert error={failure.error} title={failure.title} /></Box>}
      <StateNews folder={folder} />
    </Paper>
  );
}
