/**
 * Browser mode: a red alert above every screen while the engine's event stream is broken for more than a moment
 * (`payroll-uploader ui` stopped, or the network dropped), since what the screens show may then be stale: a folder
 * shown as Watching may not be watched. The stream reconnects by itself; Try again reloads the page. Rows typed in
 * Send records live only in the page, so while any are not sent Try again asks first, and the browser's own reload
 * or a closed tab asks too (`unsent-rows.ts`, guarded from here since this frame is there whatever screen is open).
 */
import { Alert, Button, Group, Modal, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { bridgeConnected, onBridgeConnection } from '../bridge/get-bridge';
import { sendRecordsText } from '../screens/send-records/send-records-text';
import { reloadPage, unsentRowCount, useUnsentRowsGuard } from '../screens/send-records/unsent-rows';
import { appText } from './app-text';

/** A break shorter than this (the stream's own reconnect) is not shown. */
export const CONNECTION_GRACE_MS = 3000;

const t = sendRecordsText.unsent;

export function ConnectionLost() {
  useUnsentRowsGuard();
  const client = useQueryClient();
  const connected = useSyncExternalStore(onBridgeConnection, bridgeConnected);
  const [shown, setShown] = useState(false);
  /** The number of unsent rows the clerk is asked about, while asked. */
  const [asking, setAsking] = useState<number>();
  useEffect(() => {
    if (connected) {
      setShown(false);
      return undefined;
    }
    const timer = setTimeout(() => setShown(true), CONNECTION_GRACE_MS);
    return () => clearTimeout(timer);
  }, [connected]);
  if (!shown) return null;
  const tryAgain = () => {
    const unsent = unsentRowCount(client);
    if (unsent > 0) setAsking(unsent);
    else reloadPage();
  };
  return (
    <Alert color="red" variant="light" role="alert" title={appText.engineLost} mb="md">
      <Text size="sm" mb="xs">{appText.engineLostHelp}</Text>
      <Button size="xs" variant="default" onClick={tryAgain}>{appText.tryAgain}</Button>
      <Modal opened={asking !== undefined} onClose={() => setAsking(undefined)} title={t.reloadTitle} withCloseButton={false}>
        <Text size="sm">{t.reload(asking ?? 0)}</Text>
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={() => setAsking(undefined)} data-autofocus>{t.keep}</Button>
          <Button color="red" onClick={reloadPage}>{t.reloadAnyway}</Button>
        </Group>
      </Modal>
    </Alert>
  );
}
