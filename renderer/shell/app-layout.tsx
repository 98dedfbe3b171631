/** The frame around every screen: a header, the navigation (a drawer behind a button on narrow windows or at 200 % zoom) and the content. */
import { AppShell, Badge, Burger, Group, NavLink, Title, VisuallyHidden, em } from '@mantine/core';
import { useDisclosure, useMediaQuery, useWindowEvent } from '@mantine/hooks';
import { useEffect, useRef, type ReactNode } from 'react';
import { useBridgeQuery } from '../data/bridge-queries';
import { appText } from './app-text';
import { ConnectionLost } from './connection-lost';
import { focusMainContent, MAIN_CONTENT_ID } from './main-content';
import { Notices } from './notices';
import { SCREEN_KEYS, type ScreenKey } from './screens';

export function AppLayout({ screen, onNavigate, children }: { screen: ScreenKey; onNavigate: (screen: ScreenKey) => void; children: ReactNode }) {
  const [opened, { toggle, close }] = useDisclosure(false);
  // Below Mantine's `sm` (48em) the open list covers the screen: focus goes into it, what it covers cannot be
  // reached by Tab (inert), and Escape closes it, giving focus back to the button that opened it. Closed, the list
  // is only moved out of sight, so it is inert too: Tab would otherwise walk through its links unseen.
  const narrow = useMediaQuery(`(max-width: ${em(767.98)})`) === true;
  const covering = opened && narrow;
  const folded = narrow && !opened;
  const burger = useRef<HTMLButtonElement>(null);
  const nav = useRef<HTMLDivElement>(null);
  // A screen chosen in the covering list: the list closes and the focus goes to that screen, once it can (the
  // content is inert until the list has closed), rather than stay on a link that is now out of sight.
  const toChosenScreen = useRef(false);
  useEffect(() => {
    if (covering) {
      nav.current?.querySelector<HTMLElement>('[aria-current="page"]')?.focus();
    } else if (toChosenScreen.current) {
      toChosenScreen.current = false;
      focusMainContent();
    }
  }, [covering]);
  useWindowEvent('keydown', (event) => {
    if (!covering || event.key !== 'Escape') return;
    close();
    burger.current?.focus();
  });
  const settings = useBridgeQuery('settings.get', {});
  const profile = settings.data?.settings.activeProfile;
  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      {/* The hash holds the open screen: following #main would leave it and open the Queue, so focus moves by hand. */}
      <a href={`#${MAIN_CONTENT_ID}`} className="skip-link" onClick={(event) => { event.preventDefault(); focusMainContent(); }}>
        {appText.skipToContent}
      </a>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger ref={burger} opened={opened} onClick={toggle} hiddenFrom="sm" size="sm"
              aria-label={opened ? appText.closeNavigation : appText.openNavigation} aria-expanded={opened} aria-controls="app-navigation" />
            <Title order={1} size="h3">{appText.title}</Title>
          </Group>
          {profile && (
            <Badge size="lg" variant="outline" color={profile === 'production' ? 'red' : 'blue'}>
              <VisuallyHidden>{appText.environment('')}</VisuallyHidden>{appText.profileNames[profile]}
            </Badge>
          )}
        </Group>
      </AppShell.Header>
      <AppShell.Navbar ref={nav} p="xs" id="app-navigation" aria-label={appText.navigationLabel} component="nav" inert={folded}>
        {SCREEN_KEYS.map((key) => (
          <NavLink key={key} href={`#/${key}`} label={appText.screens[key]} active={key === screen}
            aria-current={key === screen ? 'page' : undefined}
            onClick={(event) => {
              event.preventDefault();
              if (covering) toChosenScreen.current = true;
              onNavigate(key);
              close();
            }} />
        ))}
      </AppShell.Navbar>
      <AppShell.Main id={MAIN_CONTENT_ID} tabIndex={-1} inert={covering}>
        <ConnectionLost />
        <Notices />
        {children}
      </AppShell.Main>
    </AppShell>
  );
}
