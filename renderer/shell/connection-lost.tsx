/**
 * Browser mode: a red alert above every screen while the engine's event stream is broken for more than a moment
 * (`payroll-uploader ui` stopped, or the network dropped), since what the screens show may then be stale: a folder
 * shown as Watching may not be watched. The stream reconnects by itself; Try again reloads the page.
 */
import { Alert, Button, Text } from '@mantine/core';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { bridgeConnected, onBridgeConnection } from '../bridge/get-bridge';
import { appText } from './app-text';

/** A break shorter than this (the stream's own reconnect) is not shown. */
export const CONNECTION_GRACE_MS = 3000;

export function ConnectionLost() {
  const connected = useSyncExternalStore(onBridgeConnection, bridgeConnected);
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (connected) {
      setShown(false);
      return undefined;
    }
    const timer = setTimeout(() => setShown(true), CONNECTION_GRACE_MS);
    return () => clearTimeout(timer);
  }, [connected]);
  if (!shown) return null;
  return (
    <Alert color="red" variant="light" role="alert" title={appText.engineLost} mb="md">
      <Text size="sm" mb="xs">{appText.engineLostHelp}</Text>
      <Button size="xs" variant="default" onClick={() => window.location.reload()}>{appText.tryAgain}</Button>
    </Alert>
  );
}
