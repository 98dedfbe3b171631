/** One titled part of the Local server screen. */
import { Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export function Section({ title, intro, children }: { title: string; intro?: string; children: ReactNode }) {
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-label={title}>
      <Stack gap="sm">
        <Title order={3} size="h4">{title}</Title>
        {intro && <Text size="sm" c="dimmed">{intro}</Text>}
        {children}
      </Stack>
    </Paper>
  );
}
