/**
 * What happened to the last send: sent (with the import id), not sent (nothing was imported: refusals show as
 * FormProblems, other reasons here); and above it the warning of a send whose outcome is unknown, for as long as it
 * holds (`unconfirmed` in use-batch-form.ts).
 */
import { Alert, Group, Text } from '@mantine/core';
import { BridgeError } from '../../../shared/bridge';
import { CopyButton } from '../../components/copy-button';
import { errorHint, errorMessage } from '../../components/error-alert';
import { sendRecordsText } from './send-records-text';
import type { BatchOutcome, UnconfirmedSend } from './use-batch-form';

const t = sendRecordsText;

/** `earlier`: a later send has had an answer of its own (a refusal), shown below this warning. */
function UnconfirmedView({ unconfirmed, earlier }: { unconfirmed: UnconfirmedSend; earlier: boolean }) {
  const hint = unconfirmed.kind === 'error' ? errorHint(unconfirmed.error) : undefined;
  return (
    <Alert color="yellow" title={earlier ? t.earlierUnknownTitle : t.unknownTitle} role="alert">
      {unconfirmed.kind === 'unknown'
        ? unconfirmed.messages.map((m, i) => <Text key={i} size="sm">{m}</Text>)
        : <Text size="sm">{errorMessage(unconfirmed.error)}</Text>}
      {hint && <Text size="sm" mt={4}>{hint}</Text>}
      {/* The core's reason of an unknown outcome says what to check; an error of the app's own does not. */}
      <Text size="sm" mt={4}>{unconfirmed.kind === 'unknown' ? t.unknownKept : t.unknownNext}</Text>
    </Alert>
  );
}

function OutcomeView({ outcome }: { outcome: BatchOutcome }) {
  if (outcome.kind === 'sent') {
    return (
      <Alert color="green" title={t.successTitle} role="status">
        <Text size="sm">{t.success(outcome.records, outcome.importId)}</Text>
        <Text size="sm" mt={4}>{t.successNext}</Text>
        <Group mt="xs">
          <CopyButton value={outcome.importId} label={t.copyImportId} size="xs" variant="default" />
        </Group>
      </Alert>
    );
  }
  if (outcome.kind === 'refused') return null;
  if (outcome.kind === 'failed') {
    return (
      <Alert color="red" title={t.notSentTitle} role="alert">
        {outcome.messages.map((m, i) => <Text key={i} size="sm">{m}</Text>)}
        <Text size="sm" mt={4}>{t.notSentNext}</Text>
      </Alert>
    );
  }
  const notConfigured = outcome.kind === 'error' && outcome.error instanceof BridgeError && outcome.error.code === 'not_configured';
  if (notConfigured) return <Alert color="yellow" title={t.notSentTitle} role="alert"><Text size="sm">{t.notConfigured}</Text></Alert>;
  return <UnconfirmedView unconfirmed={outcome} earlier={false} />;
}

export function BatchOutcomeView({ outcome, unconfirmed }: { outcome: BatchOutcome | undefined; unconfirmed: UnconfirmedSend | undefined }) {
  return (
    <>
      {unconfirmed && <UnconfirmedView unconfirmed={unconfirmed} earlier={outcome !== undefined} />}
      {outcome && <OutcomeView outcome={outcome} />}
    </>
  );
}
