/** What happened to the last send: sent (with the import id), or not sent at all (refusals show as FormProblems). */
import { Alert, Button, CopyButton, Group, Text } from '@mantine/core';
import { BridgeError } from '../../../shared/bridge';
import { ErrorAlert } from '../../components/error-alert';
import { sendRecordsText } from './send-records-text';
import type { BatchOutcome } from './use-batch-form';

const t = sendRecordsText;

export function BatchOutcomeView({ outcome }: { outcome: BatchOutcome | undefined }) {
  if (!outcome) return null;
  if (outcome.kind === 'sent') {
    return (
      <Alert color="green" title={t.successTitle} role="status">
        <Text size="sm">{t.success(outcome.records, outcome.importId)}</Text>
        <Text size="sm" mt={4}>{t.successNext}</Text>
        <Group mt="xs">
          <CopyButton value={outcome.importId}>
            {({ copied, copy }) => (
              <Button size="xs" variant="light" color="green" onClick={copy}>{copied ? t.copied : t.copyImportId}</Button>
            )}
          </CopyButton>
        </Group>
      </Alert>
    );
  }
  if (outcome.kind === 'refused') return null;
  if (outcome.kind === 'failed') {
    return (
      <Alert color="red" title={t.batchFailedTitle} role="alert">
        {outcome.messages.map((m, i) => <Text key={i} size="sm">{m}</Text>)}
        <Text size="sm" mt={4}>{t.failedNext}</Text>
      </Alert>
    );
  }
  const notConfigured = outcome.error instanceof BridgeError && outcome.error.code === 'not_configured';
  return notConfigured
    ? <Alert color="yellow" title={t.batchFailedTitle} role="alert"><Text size="sm">{t.notConfigured}</Text></Alert>
    : <ErrorAlert error={outcome.error} title={t.batchFailedTitle} />;
}
