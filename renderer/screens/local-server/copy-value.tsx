/** A value with its label and a Copy button (the button's name says what it copies). */
import { Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { CopyButton } from '../../components/copy-button';
import { localServerText } from './local-server-text';

const t = localServerText;

export function CopyValue({ label, value, shown, extra }: { label: string; value: string; shown?: ReactNode; extra?: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="sm" fw={600}>{label}</Text>
      <Group gap="xs" wrap="wrap">
        <Text ff="monospace" size="sm" style={{ wordBreak: 'break-all' }}>{shown ?? value}</Text>
        <CopyButton value={value} label={t.copy} ariaLabel={t.copyWhat(label.toLowerCase())} size="compact-sm" variant="light" />
        {extra}
      </Group>
    </Stack>
  );
}
