/**
 * A Retry now that did not work, told above the list rather than in the file's row: the rows have fixed heights
 * (queueRowHeight), and an alert of unknown length inside one was cut off mid-sentence and pushed the row's own reason
 * out of view. Here the whole text fits, it covers nothing, and it stays when the row scrolls away or changes, until
 * dismissed or the next Retry now. A clerk scrolled down a long list is brought to it.
 */
import { Alert, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { errorHint, errorMessage } from '../../components/error-alert';
import type { RetryFailure } from './queue-job-row';
import { queueText as t } from './queue-text';

/** The core's words end with a full stop here; they are not capitalised, since they may start with a file's name. */
function withStop(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

export function RetryFailedNotice({ failure, onClose }: { failure: RetryFailure; onClose: () => void }) {
  const hint = errorHint(failure.error);
  const ref = useRef<HTMLDivElement>(null);
  // Only as far as needed to see it whole ('nearest'), below the fixed header.
  useEffect(() => ref.current?.scrollIntoView({ block: 'nearest' }), [failure]);
  return (
    <Alert ref={ref} color="red" role="alert" mb="md" title={t.retryFailed(failure.name)}
      withCloseButton closeButtonLabel={t.dismiss} onClose={onClose}
      style={{ scrollMarginTop: 'calc(var(--app-shell-header-offset, 0rem) + 1rem)' }}>
      <Text size="sm">{withStop(errorMessage(failure.error))}</Text>
      {hint && <Text size="sm" mt={4}>{hint}</Text>}
    </Alert>
  );
}
