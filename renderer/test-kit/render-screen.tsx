/** Renders a piece of the UI as the app does (theme, query client, bridge) around an in-memory bridge. */
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { BridgeProvider } from '../data/bridge-context';
import { createQueryClient } from '../data/query-client';
import { theme } from '../shell/theme';
import { createMemoryBridge, type MemoryBridge } from './memory-bridge';

export function renderScreen(ui: ReactElement, bridge: MemoryBridge = createMemoryBridge()) {
  const client = createQueryClient();
  client.setDefaultOptions({ queries: { ...client.getDefaultOptions().queries, retry: false } });
  const result = render(
    <MantineProvider theme={theme} defaultColorScheme="auto">
      <QueryClientProvider client={client}>
        <BridgeProvider bridge={bridge}>{ui}</BridgeProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { ...result, bridge, client };
}
