/**
 * Which environment is active, and each one's address and credentials.
 *
 * The radios only choose: nothing is switched until the clerk presses "Switch to <name>", so moving through them with
 * the arrow keys changes nothing. Switching to Production asks first, in a dialog saying that real payroll files go
 * to the real service. Only the latest attempt's outcome is shown: a success or a failure, never both.
 */
import { Badge, Button, Group, Radio, Stack, Tabs, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import type { SettingsView } from '../../../shared/bridge';
import { PROFILE_NAMES, type ProfileName, type Settings } from '../../../shared/settings.schema';
import { ErrorAlert } from '../../components/error-alert';
import { putAnswer, useBridgeMutation } from '../../data/bridge-queries';
import { ProductionConfirm } from './production-confirm';
import { ProfileForm } from './profile-form';
import { settingsText } from './settings-text';
import { StatusNote } from './status-note';

const t = settingsText.environments;

/** What the latest switch came to; null before any, and again once the clerk chooses anew. */
type Outcome =
  | { kind: 'switched'; profile: ProfileName; hasAddress: boolean }
  | { kind: 'failed'; profile: ProfileName; error: unknown };

export function EnvironmentSection({ settings }: { settings: Settings }) {
  const client = useQueryClient();
  const active = settings.activeProfile;
  const [editing, setEditing] = useState<ProfileName>(active);
  // null: the radios show the active environment (also after it changes elsewhere, e.g. the tray).
  const [picked, setPicked] = useState<ProfileName | null>(null);
  const chosen = picked ?? active;
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [confirming, setConfirming] = useState(false);
  const radios = useRef<Partial<Record<ProfileName, HTMLInputElement | null>>>({});
  const change = useBridgeMutation('profile.switch');

  const apply = (profile: ProfileName) => {
    setOutcome(null);
    // Callbacks given to mutate run for this attempt only, so an older answer never shows as the latest.
    change.mutate({ profile }, {
      onSuccess: (next: SettingsView) => {
        putAnswer(client, 'settings.get', {}, next);
        void client.invalidateQueries({ queryKey: ['credentials.status'] });
        const now = next.settings.activeProfile;
        setPicked(null);
        setEditing(now);
        setOutcome({ kind: 'switched', profile: now, hasAddress: next.settings.profiles[now].baseUrl !== undefined });
        // The button just pressed is gone (nothing left to switch to): the clerk goes on from the chosen radio.
        radios.current[now]?.focus();
      },
      onError: (error) => setOutcome({ kind: 'failed', profile, error }),
    });
  };
  const requestSwitch = () => {
    if (chosen === 'production') setConfirming(true);
    else apply(chosen);
  };

  return (
    <Stack gap="md">
      <Radio.Group label={t.active} description={t.activeHelp} value={chosen}
        onChange={(value) => { setPicked(value); setOutcome(null); }}>
        <Stack gap={6} mt={6}>
          {PROFILE_NAMES.map((name) => (
            <Radio key={name} value={name} description={t.descriptions[name]}
              ref={(input) => { radios.current[name] = input; }}
              label={name === active
                ? <>{t.names[name]} <Badge size="sm" variant="light" color={name === 'production' ? 'red' : 'blue'} ml={4}>{t.activeNow}</Badge></>
                : t.names[name]} />
          ))}
        </Stack>
      </Radio.Group>
      {chosen !== active && (
        <Group gap="xs" align="center">
          <Button w="fit-content" color={chosen === 'production' ? 'red' : undefined} loading={change.isPending}
            onClick={requestSwitch}>{t.switchTo(t.names[chosen])}</Button>
          <Text size="sm">{t.staysActive(t.names[active])}</Text>
        </Group>
      )}
      <div role="status" aria-label={t.switchOutcome}>
        {outcome?.kind === 'switched' && (outcome.hasAddress
          ? <StatusNote color="green">{t.switched(t.names[outcome.profile])}</StatusNote>
          : <StatusNote color="yellow">{t.switchedNoAddress(t.names[outcome.profile])}</StatusNote>)}
      </div>
      {outcome?.kind === 'failed' && <ErrorAlert error={outcome.error} title={t.switchFailed(t.names[outcome.profile])} />}
      <ProductionConfirm opened={confirming} filesMayWait onCancel={() => setConfirming(false)}
        onConfirm={() => { setConfirming(false); apply('production'); }} />
      <Tabs value={editing} onChange={(v) => v && setEditing(v as ProfileName)} keepMounted={false}>
        <Tabs.List aria-label={t.tabsLabel}>
          {PROFILE_NAMES.map((name) => <Tabs.Tab key={name} value={name}>{t.names[name]}</Tabs.Tab>)}
        </Tabs.List>
        {PROFILE_NAMES.map((name) => (
          <Tabs.Panel key={name} value={name} pt="md">
            <Text size="sm" mb="sm">{t.descriptions[name]}</Text>
            <ProfileForm profile={name} settings={settings} />
          </Tabs.Panel>
        ))}
      </Tabs>
    </Stack>
  );
}
