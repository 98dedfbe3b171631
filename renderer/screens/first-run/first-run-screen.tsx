/**
 * The guided set-up a new clerk sees instead of empty screens: environment, credentials with a connection test, folder.
 * Each step has a heading that takes the focus when the step opens (Next, Back), so a screen reader says where the
 * clerk now is instead of leaving the focus on a button that is gone.
 */
import { Anchor, Button, Container, Group, Loader, Paper, Radio, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { PROFILE_NAMES, type ProfileName } from '../../../shared/settings.schema';
import { ErrorAlert } from '../../components/error-alert';
import { useBridge } from '../../data/bridge-context';
import { putAnswer, useBridgeMutation, useBridgeQuery } from '../../data/bridge-queries';
import { useSetupGate } from '../../shell/setup-gate';
import { FolderForm } from '../settings/folder-form';
import { ProductionConfirm } from '../settings/production-confirm';
import { ProfileForm } from '../settings/profile-form';
import { settingsText } from '../settings/settings-text';
import { firstRunText as t } from './first-run-text';
import { SetupSteps } from './setup-steps';

const names = settingsText.environments.names;

function BuiltInServer({ onConnected }: { onConnected: () => void }) {
  const bridge = useBridge();
  const client = useQueryClient();
  const start = useMutation({
    // The started server points the Local profile at itself; its own client goes into the keychain for the profile.
    mutationFn: async () => {
      const state = await bridge.call('localServer.start', {});
      const own = await bridge.call('localServer.credentials', {});
      await bridge.call('credentials.set', { profile: 'local', clientId: own.clientId, clientSecret: own.clientSecret });
      const test = await bridge.call('credentials.test', { profile: 'local' });
      if (!test.ok) throw new Error(test.message ?? 'the connection test failed');
      return state;
    },
    onSuccess: async () => {
      await client.invalidateQueries();
      onConnected();
    },
  });
  return (
    <Stack gap={4}>
      <Button variant="light" w="fit-content" loading={start.isPending} onClick={() => start.mutate()}>{t.credentials.builtIn}</Button>
      <Text size="sm">{t.credentials.builtInHelp}</Text>
      {start.error && <ErrorAlert error={start.error} />}
    </Stack>
  );
}

export function FirstRunScreen() {
  const gate = useSetupGate();
  const client = useQueryClient();
  const bridge = useBridge();
  const settings = useBridgeQuery('settings.get', {});
  const [step, setStep] = useState(0);
  const [profile, setProfile] = useState<ProfileName | null>(null);
  const [connected, setConnected] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const openedStep = useRef(step);
  useEffect(() => {
    if (openedStep.current === step) return;
    openedStep.current = step;
    heading.current?.focus();
  }, [step]);
  const chosen = profile ?? settings.data?.settings.activeProfile ?? 'local';
  const choose = useBridgeMutation('profile.switch', {
    onSuccess: (next) => { putAnswer(client, 'settings.get', {}, next); setStep(1); },
  });
  /**
   * Starts watching the saved folder and ends the set-up on the Queue. A folder that is not there is most likely a
   * typing mistake (the payroll system saves into a folder that exists): the set-up stays on this step and says so
   * at the field, rather than create a folder nobody saves into or end on a Queue that says "Folder missing". A
   * start that fails otherwise ends on the Queue all the same, which says why the folder is not watched.
   */
  const finish = async (folder: string): Promise<string | undefined> => {
    try {
      const state = await bridge.call('watch.start', {});
      if (state.state === 'missing') return t.folder.missing(folder, bridge.platform === 'desktop');
      // The Queue opens on this state, not on the "stopped" one kept from saving the folder: it would say "Not
      // watching", then "Watching" once the core's event came, and announce the change as news.
      putAnswer(client, 'watch.state', {}, state);
    } catch {
      // Told on the Queue (the folder's state and why).
    }
    await client.invalidateQueries();
    window.location.hash = '#/queue';
    gate.done();
    return undefined;
  };

  return (
    // Focusable by script, as the screens' content is: a control of the set-up that goes or is disabled while it has
    // the focus hands it to the set-up's content rather than to the page (focus-fallback.ts).
    <Container size="sm" py="xl" component="main" id="main" tabIndex={-1}>
      <Stack gap="lg">
        <div>
          <Title order={1} mb={4}>{t.title}</Title>
          <Text>{t.intro}</Text>
        </div>
        <SetupSteps active={step} />
        <Paper withBorder p="lg">
          {!settings.data && (settings.error ? <ErrorAlert error={settings.error} /> : <Loader aria-hidden />)}
          {settings.data && step === 0 && (
            <Stack gap="md">
              <Title order={2} size="h3" ref={heading} tabIndex={-1}>{t.environment.heading}</Title>
              <Radio.Group label={t.environment.question} description={t.environment.help} value={chosen}
                onChange={(v) => setProfile(v)}>
                <Stack gap="sm" mt="sm">
                  {PROFILE_NAMES.map((name) => (
                    <Radio key={name} value={name} label={names[name]} description={settingsText.environments.descriptions[name]} />
                  ))}
                </Stack>
              </Radio.Group>
              {choose.error && <ErrorAlert error={choose.error} />}
              <Group justify="flex-end">
                <Button loading={choose.isPending}
                  onClick={() => (chosen === 'production' ? setConfirming(true) : choose.mutate({ profile: chosen }))}>{t.next}</Button>
              </Group>
              {/* Nothing is queued before the set-up ends, so the question leaves out where queued files wait. */}
              <ProductionConfirm opened={confirming} onCancel={() => setConfirming(false)}
                onConfirm={() => { setConfirming(false); choose.mutate({ profile: 'production' }); }} />
            </Stack>
          )}
          {settings.data && step === 1 && (
            <Stack gap="md">
              <Title order={2} size="h3" ref={heading} tabIndex={-1}>{t.credentials.heading(names[chosen])}</Title>
              <Text size="sm">{t.credentials.help}</Text>
              {chosen === 'local' && <BuiltInServer onConnected={() => setConnected(true)} />}
              <ProfileForm profile={chosen} settings={settings.data.settings} mode="first-run" onConnected={() => setConnected(true)}
                onEdited={() => setConnected(false)} />
              {connected && <Text fw={600} role="status">{t.credentials.connected}</Text>}
              <Group justify="space-between">
                <Button variant="default" onClick={() => setStep(0)}>{t.back}</Button>
                <Button disabled={!connected} onClick={() => setStep(2)}>{t.next}</Button>
              </Group>
            </Stack>
          )}
          {settings.data && step === 2 && (
            <Stack gap="md">
              <Title order={2} size="h3" ref={heading} tabIndex={-1}>{t.folder.heading}</Title>
              <Text size="sm">{t.folder.help}</Text>
              <FolderForm folder={settings.data.settings.watchedFolder} saveLabel={t.folder.save} onSaved={finish} />
              <Group><Button variant="default" onClick={() => setStep(1)}>{t.back}</Button></Group>
            </Stack>
          )}
        </Paper>
        <Text size="sm">
          <Anchor component="button" type="button" onClick={() => gate.done()}>{t.later}</Anchor> — {t.laterHelp}
        </Text>
      </Stack>
    </Container>
  );
}
