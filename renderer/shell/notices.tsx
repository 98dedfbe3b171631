/**
 * Messages the core sends for the clerk (a refused file, a failure), shown above every screen until dismissed (one by
 * one, or all at once when there are several), or until they are over (a stopped watch that runs again, a refused
 * file put back in the queue). The core keeps them (notices.list), so a window opened later shows what was said
 * meanwhile, and a dismissal goes in every window. The newest few are shown; the rest wait their turn.
 *
 * For a screen reader: the messages are a list in a region named Messages, each one said once, politely, when it comes
 * (useAnnouncer), not the whole list again whenever one comes or goes. Each Dismiss button is named after
 * its message; once a message with the focus on its button goes (dismissed here or elsewhere, or over), the focus goes
 * to the one that takes its place (or the one before), and when none is left, to the screen: a focus left on a button
 * that is gone would be lost at the top of the page.
 */
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useRef, type FocusEvent } from 'react';
import { NOTICES_KEPT } from '../../shared/bridge';
import { useAnnouncer } from '../components/live-announcer';
import { useBridge } from '../data/bridge-context';
import { dropNotices, noticesKey, useNotices, type NoticeItem, type NoticesState } from '../data/use-bridge-event';
import { appText } from './app-text';
import { focusMainContent } from './main-content';
import { noticeSummary } from './notice-summary';

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

/**
 * Says each message once, as it comes (oldest first when several come at once). Those waiting their turn are not
 * said when they come into view by a dismissal: the focus goes to them then, and their Dismiss button names them.
 */
function useNoticeAnnouncements(items: NoticeItem[]) {
  const { announce, region } = useAnnouncer('polite');
  const said = useRef(new Set<string>());
  useEffect(() => {
    for (const notice of items.slice(0, NOTICES_SHOWN).reverse()) {
      if (!said.current.has(notice.key)) announce(notice.message);
    }
    said.current = new Set(items.map((notice) => notice.key));
  }, [items, announce]);
  return region;
}

export function Notices() {
  const bridge = useBridge();
  const client = useQueryClient();
  const { run, version, items, leftOut } = useNotices();
  const shown = items.slice(0, NOTICES_SHOWN);
  const hidden = items.length - shown.length;
  const announcements = useNoticeAnnouncements(items);
  const box = useRef<HTMLDivElement>(null);
  const dismissButtons = () => [...(box.current?.querySelectorAll<HTMLElement>('[data-dismiss-notice]') ?? [])];
  // The Dismiss button that has the focus and its place among them (-1: Dismiss all), kept current at each change.
  const focused = useRef<{ button: HTMLElement; at: number } | undefined>(undefined);
  const onFocus = (event: FocusEvent<HTMLElement>) => {
    const all = event.target.hasAttribute('data-dismiss-all');
    const at = all ? -1 : dismissButtons().indexOf(event.target);
    focused.current = all || at >= 0 ? { button: event.target, at } : undefined;
  };
  // Focus moved on to something else; without a next element it may be the button's own going (handled below).
  const onBlur = (event: FocusEvent<HTMLElement>) => {
    if (event.relatedTarget) focused.current = undefined;
  };
  // The focused button went (its message dismissed, here or in another window, or over; or Dismiss all): the focus,
  // left to the top of the page, goes to the Dismiss button of the message now in that place, or the one before it,
  // or, with none left, to the screen.
  useEffect(() => {
    const was = focused.current;
    if (!was) return;
    const buttons = dismissButtons();
    if (was.button.isConnected) {
      if (was.at >= 0) was.at = buttons.indexOf(was.button);
      return;
    }
    focused.current = undefined;
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected) return;
    const next = buttons[Math.max(0, Math.min(was.at, buttons.length - 1))];
    if (next) next.focus();
    else focusMainContent();
  });
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
    <>
      {announcements}
      {(items.length > 0 || leftOut > 0) && (
        <Stack gap="xs" component="section" aria-label={appText.noticesLabel} mb="md" ref={box} onFocus={onFocus} onBlur={onBlur}>
          {(items.length > 1 || leftOut > 0) && (
            <Group justify="flex-end">
              <Button size="xs" variant="subtle" onClick={dismissAll} data-dismiss-all>{appText.dismissAllNotices}</Button>
            </Group>
          )}
          {shown.length > 0 && (
            <Stack gap="xs" role="list">
              {shown.map((notice) => (
                <Alert key={notice.key} role="listitem" color={COLORS[notice.level]} variant="light" withCloseButton
                  closeButtonLabel={appText.dismissNotice(noticeSummary(notice.message))} onClose={() => dismiss(notice)}
                  attributes={{ closeButton: { 'data-dismiss-notice': '' } }}>
                  {notice.message}
                </Alert>
              ))}
            </Stack>
          )}
          {hidden > 0 && <Text size="sm">{appText.hiddenNotices(hidden)}</Text>}
          {leftOut > 0 && <Text size="sm">{appText.leftOutNotices(leftOut, NOTICES_KEPT)}</Text>}
        </Stack>
      )}
    </>
  );
}
