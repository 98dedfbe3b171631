/**
 * One waiting file of the queue in full, opened by its row's Details button. The rows have fixed heights
 * (queueRowHeight) and show two lines of why a file waits; a service's reason, the instruction for a file held for
 * another service, or a long file name at 200 % zoom need more, so here they are whole. It reads the file from the
 * queue the screen shows, so it follows the file live and says so when the file has left the queue.
 */
import { Badge, Drawer, Stack, Text } from '@mantine/core';
import type { JobView } from '../../../shared/bridge';
import { FactsTable, type Fact } from '../../components/facts-table';
import { formatBytes, formatDateTime } from '../../components/format';
import { jobText, STEP_COLORS, stepBadge } from './queue-job-row';
import { stepOf } from './queue-step';
import { queueText } from './queue-text';

const t = queueText.details;

/** The file the drawer is open for: its name stays known once it has left the queue. */
export type OpenJob = { id: number; name: string };

function Facts({ job }: { job: JobView }) {
  const step = stepOf(job);
  const rows: Fact[] = [
    [t.step, <Badge key="step" color={STEP_COLORS[step]} variant="light">{stepBadge(job, step)}</Badge>],
    [t.why, jobText(job, step)],
    [t.path, job.path],
    [t.size, formatBytes(job.size)],
    [t.found, formatDateTime(job.foundAt)],
  ];
  return <FactsTable facts={rows} labelWidth="30%" />;
}

export function QueueJobDrawer({ open, items, onClose }: { open: OpenJob | undefined; items: readonly JobView[]; onClose: () => void }) {
  const job = open && items.find((j) => j.id === open.id);
  return (
    <Drawer opened={open !== undefined} onClose={onClose} position="right" size="lg" title={open?.name ?? ''}
      closeButtonProps={{ 'aria-label': t.close }} styles={{ title: { fontWeight: 700, overflowWrap: 'anywhere' } }}>
      <Stack gap="md">
        {job ? <Facts job={job} /> : open && <Text role="status">{t.gone(open.name)}</Text>}
      </Stack>
    </Drawer>
  );
}
