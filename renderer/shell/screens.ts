/** The screens of the navigation, in order; the hash of the address names the open one (#/history). */
import type { ComponentType } from 'react';
import { DeliveriesScreen } from '../screens/deliveries/deliveries-screen';
import { HistoryScreen } from '../screens/history/history-screen';
import { LocalServerScreen } from '../screens/local-server/local-server-screen';
import { QueueScreen } from '../screens/queue/queue-screen';
import { SendRecordsScreen } from '../screens/send-records/send-records-screen';
import { SettingsScreen } from '../screens/settings/settings-screen';

export const SCREEN_KEYS = ['queue', 'history', 'send-records', 'deliveries', 'settings', 'local-server'] as const;
export type ScreenKey = (typeof SCREEN_KEYS)[number];

export const SCREENS: Record<ScreenKey, ComponentType> = {
  queue: QueueScreen,
  history: HistoryScreen,
  'send-records': SendRecordsScreen,
  deliveries: DeliveriesScreen,
  settings: SettingsScreen,
  'local-server': LocalServerScreen,
};

export const isScreenKey = (value: string): value is ScreenKey => (SCREEN_KEYS as readonly string[]).includes(value);

export const screenFromHash = (hash: string): ScreenKey => {
  const key = hash.replace(/^#\/?/, '');
  return isScreenKey(key) ? key : 'queue';
};
