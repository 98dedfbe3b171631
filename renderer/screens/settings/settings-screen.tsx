/** Settings: environments and credentials, the watched folder, start at login (desktop app), and how files are handled. */
import { Loader, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { ErrorAlert } from '../../components/error-alert';
import { PageHeader } from '../../components/page-header';
import { useBridge } from '../../data/bridge-context';
import { useBridgeQuery } from '../../data/bridge-queries';
import { EnvironmentSection } from './environment-section';
import { FilesForm } from './files-form';
import { FolderForm } from './folder-form';
import { settingsText as t } from './settings-text';
import { StartupForm } from './startup-form';

function Section({ id, title, help, children }: { id: string; title: string; help: string; children: ReactNode }) {
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={id}>
      <Title order={3} id={id} mb={4}>{title}</Title>
      <Text size="sm" mb="md">{help}</Text>
      {children}
    </Paper>
  );
}

export function SettingsScreen() {
  const bridge = useBridge();
  const settings = useBridgeQuery('settings.get', {});
  return (
    <>
      <PageHeader title={t.title} description={t.description} />
      {settings.isPending && <Loader aria-label={t.title} />}
      {settings.error && <ErrorAlert error={settings.error} title={t.loadError} />}
      {settings.data && (
        <Stack gap="lg" maw={860}>
          <Section id="settings-environments" title={t.environments.heading} help={t.environments.help}>
            <EnvironmentSection settings={settings.data.settings} />
          </Section>
          <Section id="settings-folder" title={t.folder.heading} help={t.folder.help}>
            <FolderForm folder={settings.data.settings.watchedFolder} />
          </Section>
          {bridge.platform === 'desktop' && (
            <Section id="settings-startup" title={t.startup.heading} help={t.startup.help}>
              <StartupForm startAtLogin={settings.data.settings.startAtLogin ?? false} />
            </Section>
          )}
          <Section id="settings-files" title={t.files.heading} help={t.files.help}>
            <FilesForm settings={settings.data.settings} />
          </Section>
        </Stack>
      )}
    </>
  );
}
