/** On/off and the address of the embedded local server. */
import { Badge, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { LocalServerState } from '../../../shared/bridge';
import { ErrorAlert } from '../../components/error-alert';
import { useStartLocalServer, useStopLocalServer } from '../../data/local-server-queries';
import { CopyValue } from './copy-value';
import { localServerText } from './local-server-text';
import { Section } from './section';

const t = localServerText.server;

export function ServerSection({ state }: { state: LocalServerState }) {
  const start = useStartLocalServer();
  const stop = useStopLocalServer();
  const [port, setPort] = useState('');
  const [portInvalid, setPortInvalid] = useState(false);

  const onStart = () => {
    const trimmed = port.trim();
    const ok = trimmed === '' || (/^\d{1,5}$/.test(trimmed) && Number(trimmed) >= 1 && Number(trimmed) <= 65535);
    setPortInvalid(!ok);
    if (ok) start.mutate(trimmed === '' ? {} : { port: Number(trimmed) });
  };

  return (
    <Section title={t.title}>
      <Group gap="xs">
        <Text size="sm" fw={600}>{t.stateLabel}:</Text>
        <Badge color={state.running ? 'green' : 'gray'} variant="light" radius="sm" style={{ textTransform: 'none' }}>
          {state.running ? t.running : t.stopped}
        </Badge>
      </Group>
      {state.running && state.url ? (
        <Stack gap="sm">
          <CopyValue label={t.address} value={state.url} />
          <Text size="sm">{t.runningHelp}</Text>
          <Group><Button color="red" variant="light" onClick={() => stop.mutate({})} loading={stop.isPending}>{t.stop}</Button></Group>
        </Stack>
      ) : (
        <Stack gap="sm">
          <Text size="sm">{t.stoppedHelp}</Text>
          <Group align="flex-start" gap="sm">
            <TextInput label={t.port} description={t.portHelp} value={port} inputMode="numeric" w={220}
              onChange={(e) => setPort(e.currentTarget.value)} error={portInvalid ? t.portInvalid : undefined} />
          </Group>
          <Group><Button onClick={onStart} loading={start.isPending}>{t.start}</Button></Group>
        </Stack>
      )}
      {start.error && <ErrorAlert error={start.error} title={t.startFailed} />}
      {stop.error && <ErrorAlert error={stop.error} title={t.stopFailed} />}
    </Section>
  );
}
