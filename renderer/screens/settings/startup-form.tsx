/** Start at login, in the desktop app only: the app then opens hidden in the tray and keeps watching. */
import { Stack, Switch } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorAlert } from '../../components/error-alert';
import { useBridge } from '../../data/bridge-context';
import { putAnswer } from '../../data/bridge-queries';
import { settingsText } from './settings-text';
import { StatusNote } from './status-note';

const t = settingsText.startup;

export function StartupForm({ startAtLogin }: { startAtLogin: boolean }) {
  const bridge = useBridge();
  const client = useQueryClient();
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState<boolean | null>(null);
  const [failure, setFailure] = useState<unknown>(null);

  const change = async (enabled: boolean) => {
    setSaving(true); setSaved(null); setFailure(null);
    try {
      const next = await bridge.call('settings.patch', { startAtLogin: enabled });
      putAnswer(client, 'settings.get', {}, next);
      setSaved(next.settings.startAtLogin ?? false);
    } catch (error) {
      setFailure(error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Stack gap="sm">
      <Switch label={t.label} description={t.description} checked={startAtLogin} disabled={saving}
        onChange={(event) => void change(event.currentTarget.checked)} />
      <div role="status">{saved !== null && <StatusNote color="green">{saved ? t.on : t.off}</StatusNote>}</div>
      {failure !== null && <ErrorAlert error={failure} />}
    </Stack>
  );
}
