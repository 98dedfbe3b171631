/** History: finished files and sent batches with their outcomes. */
import { SegmentedControl, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { PageHeader } from '../../components/page-header';
import { BatchesView } from './batches-view';
import { FilesView } from './files-view';
import { historyText as t } from './history-text';

export function HistoryScreen() {
  const [view, setView] = useState<'files' | 'batches'>('files');
  return (
    <>
      <PageHeader title={t.title} description={t.description} />
      <Stack gap={4} mb="md">
        <Text fw={600} size="sm" id="history-view-label">{t.show}</Text>
        <SegmentedControl value={view} onChange={(v) => setView(v)} w="fit-content"
          aria-labelledby="history-view-label"
          data={[{ value: 'files', label: t.views.files }, { value: 'batches', label: t.views.batches }]} />
      </Stack>
      {view === 'files' ? <FilesView /> : <BatchesView />}
    </>
  );
}
