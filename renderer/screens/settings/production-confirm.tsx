/**
 * The question asked before anything makes Production the active environment (Settings, the first-run set-up): real
 * payroll goes there from then on. Cancel has the focus; the caller switches only on `onConfirm`.
 */
import { Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import { settingsText } from './settings-text';

const t = settingsText.environments.production;

export function ProductionConfirm({ opened, onCancel, onConfirm, filesMayWait = false }: {
  opened: boolean;
  onCancel: () => void;
  onConfirm: () => void;
  /** Whether files may already wait in the Queue (not at the first-run set-up, where none can be queued yet). */
  filesMayWait?: boolean;
}) {
  return (
    <Modal opened={opened} onClose={onCancel} title={t.title} centered
      closeButtonProps={{ 'aria-label': t.close }} styles={{ title: { fontWeight: 700 } }}>
      <Stack gap="sm">
        <Text size="sm">{t.real}</Text>
        <List size="sm" spacing={4}>
          <List.Item>{t.from}</List.Item>
          {filesMayWait && <List.Item>{t.queued}</List.Item>}
        </List>
        <Group justify="flex-end" gap="xs" mt="xs">
          <Button variant="default" data-autofocus onClick={onCancel}>{t.cancel}</Button>
          <Button color="red" onClick={onConfirm}>{t.confirm}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
