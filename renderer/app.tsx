/** The app: providers around the set-up gate and the screens. */
import { Alert, Button, Center, Loader, MantineProvider, Stack, Text } from '@mantine/core';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { BridgeApi } from '../shared/bridge';
import { useFocusFallback } from './components/focus-fallback';
import { BridgeProvider } from './data/bridge-context';
import { useLiveUpdates } from './data/use-bridge-event';
import { FirstRunScreen } from './screens/first-run/first-run-screen';
import { AppLayout } from './shell/app-layout';
import { appText } from './shell/app-text';
import { focusMainContent } from './shell/main-content';
import { SCREENS } from './shell/screens';
import { SetupGateContext, useSetupNeed } from './shell/setup-gate';
import { cssVariablesResolver, theme } from './shell/theme';
import { useScreen } from './shell/use-screen';

export function App({ bridge, queryClient }: { bridge: BridgeApi; queryClient: QueryClient }) {
  // A control that goes away while it has the focus hands it to what is around it, never to the page (<body>).
  useFocusFallback();
  return (
    <MantineProvider theme={theme} defaultColorScheme="auto" cssVariablesResolver={cssVariablesResolver}>
      <QueryClientProvider client={queryClient}>
        <BridgeProvider bridge={bridge}>
          <AppContent />
        </BridgeProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}

function AppContent() {
  useLiveUpdates();
  const need = useSetupNeed();
  // Decided once, when the app opens: the set-up's own changes (a new profile, new credentials) must not end it early.
  const [mode, setMode] = useState<'deciding' | 'setup' | 'screens'>('deciding');
  const [screen, go] = useScreen();
  /*
   * The set-up's last button (Start watching this folder, Set up later) goes with the whole set-up, and nothing of it
   * is left to take the focus: it fell to the page, where a screen reader says nothing and the next Tab starts again
   * at "Skip to content". The screen the set-up ends on takes it instead, its content as the skip link gives it.
   */
  const setupEnded = useRef(false);
  const gate = useMemo(() => ({ done: () => { setupEnded.current = true; setMode('screens'); } }), []);
  useEffect(() => {
    if (mode !== 'screens' || !setupEnded.current) return;
    setupEnded.current = false;
    focusMainContent();
  }, [mode]);
  const decided = !need.loading && !need.error;
  const needed = !need.loading && need.needed;
  useEffect(() => {
    if (decided) setMode((current) => (current === 'deciding' ? (needed ? 'setup' : 'screens') : current));
  }, [decided, needed]);

  if (mode === 'setup') {
    return <SetupGateContext.Provider value={gate}><FirstRunScreen /></SetupGateContext.Provider>;
  }
  if (mode === 'screens') {
    const Screen = SCREENS[screen];
    return <AppLayout screen={screen} onNavigate={go}><Screen /></AppLayout>;
  }
  if (need.loading || !need.error) {
    return <Center h="100vh"><Stack align="center"><Loader aria-hidden /><Text>{appText.loading}</Text></Stack></Center>;
  }
  return (
    <Center h="100vh" p="md">
      <Alert color="red" title={appText.cannotReachCore} maw={520}>
        <Text mb="sm">{appText.cannotReachCoreHelp}</Text>
        <Button onClick={() => window.location.reload()}>{appText.tryAgain}</Button>
      </Alert>
    </Center>
  );
}
