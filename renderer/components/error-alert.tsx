/** A failed call in plain words: what the core said, and what to do about it. */
import { Alert, Text } from '@mantine/core';
import { BridgeError } from '../../shared/bridge';
import { componentsText } from './components-text';

export function errorHint(error: unknown): string | undefined {
  return error instanceof BridgeError ? componentsText.errors.hints[error.code] : undefined;
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function ErrorAlert({ error, title = componentsText.errors.title }: { error: unknown; title?: string }) {
  const hint = errorHint(error);
  return (
    <Alert color="red" title={title} role="alert">
      <Text size="sm">{errorMessage(error)}</Text>
      {hint && <Text size="sm" mt={4}>{hint}</Text>}
    </Alert>
  );
}
