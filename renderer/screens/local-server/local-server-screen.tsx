/** Local server: on/off and address, its client credentials, webhook, request log and fault injection. */
import { Stack } from '@mantine/core';
import { ErrorAlert } from '../../components/error-alert';
import { PageHeader } from '../../components/page-header';
import { useLocalServerState } from '../../data/local-server-queries';
import { CredentialsSection } from './credentials-section';
import { FaultsSection } from './faults-section';
import { localServerText } from './local-server-text';
import { RequestLogSection } from './request-log-section';
import { ServerSection } from './server-section';
import { WebhookSection } from './webhook-section';

const t = localServerText;

export function LocalServerScreen() {
  const state = useLocalServerState();
  return (
    <Stack gap="md">
      <PageHeader title={t.title} description={t.intro} />
      {state.error && <ErrorAlert error={state.error} />}
      {state.data && <ServerSection state={state.data} />}
      {state.data?.running && (
        <>
          <CredentialsSection />
          <WebhookSection />
          <RequestLogSection />
          <FaultsSection />
        </>
      )}
    </Stack>
  );
}
