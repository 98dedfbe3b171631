/** The app's own client of the local server, with copy buttons; the secret is hidden until asked for. */
import { Button, Stack } from '@mantine/core';
import { useState } from 'react';
import { ErrorAlert } from '../../components/error-alert';
import { useLocalCredentials } from '../../data/local-server-queries';
import { CopyValue } from './copy-value';
import { localServerText } from './local-server-text';
import { Section } from './section';

const t = localServerText.credentials;

export function CredentialsSection() {
  const credentials = useLocalCredentials(true);
  const [shown, setShown] = useState(false);
  const c = credentials.data;
  return (
    <Section title={t.title} intro={t.intro}>
      {credentials.error && <ErrorAlert error={credentials.error} />}
      {c && (
        <Stack gap="sm">
          <CopyValue label={t.clientId} value={c.clientId} />
          <CopyValue
            label={t.clientSecret}
            value={c.clientSecret}
            shown={shown ? c.clientSecret : '•'.repeat(16)}
            extra={(
              <Button size="compact-sm" variant="subtle" onClick={() => setShown(!shown)} aria-label={shown ? t.hideSecret : t.showSecret} aria-pressed={shown}>
                {shown ? t.hide : t.show}
              </Button>
            )}
          />
        </Stack>
      )}
    </Section>
  );
}
