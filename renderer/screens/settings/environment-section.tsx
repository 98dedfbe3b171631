/** Which environment is active, and each one's address and credentials. */
import { Alert, Radio, Stack, Tabs, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { PROFILE_NAMES, type ProfileName, type Settings } from '../../../shared/settings.schema';
import { ErrorAlert } from '../../components/error-alert';
import { keyOf, useBridgeMutation } from '../../data/bridge-queries';
import { ProfileForm } from './profile-form';
import { settingsText } from './settings-text';

const t = settingsText.environments;

export function EnvironmentSection({ settings }: { settings: Settings }) {
  const client = useQueryClient();
  const [editing, setEditing] = useState<ProfileName>(settings.activeProfile);
  const change = useBridgeMutation('profile.switch', {
    onSuccess: (next) => {
      client.setQueryData(keyOf('settings.get', {}), next);
      void client.invalidateQueries({ queryKey: ['credentials.status'] });
      setEditing(next.settings.activeProfile);
    },
  });
  return (
    <Stack gap="md">
      <Radio.Group label={t.active} value={settings.activeProfile}
        onChange={(value) => change.mutate({ profile: value })}>
        <Stack gap={6} mt={6}>
          {PROFILE_NAMES.map((name) => (
            <Radio key={name} value={name} label={t.names[name]} description={t.descriptions[name]} />
          ))}
        </Stack>
      </Radio.Group>
      <div role="status">{change.isSuccess && <Alert color="green">{t.switched(t.names[settings.activeProfile])}</Alert>}</div>
      {change.error && <ErrorAlert error={change.error} />}
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
