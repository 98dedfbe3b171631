/** What a screen shows when it has nothing yet: what this place is for and what to do next. */
import { Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export function EmptyState({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <Paper withBorder p="xl" radius="md">
      <Stack gap="xs" align="flex-start">
        <Title order={3} size="h4">{title}</Title>
        <Text>{children}</Text>
        {action}
      </Stack>
    </Paper>
  );
}
