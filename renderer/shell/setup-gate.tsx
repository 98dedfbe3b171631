/**
 * Decides whether the app opens on the guided set-up: with no credentials for the active environment or no watched
 * folder there is nothing the other screens could show, so a new clerk is walked through it instead.
 */
import { createContext, useContext } from 'react';
import { useBridgeQuery } from '../data/bridge-queries';

export type SetupGate = {
  /** The set-up is finished or put off: show the screens. */
  done(): void;
};

export const SetupGateContext = createContext<SetupGate>({ done() {} });
export const useSetupGate = () => useContext(SetupGateContext);

export type SetupNeed = { loading: true } | { loading: false; error: unknown; needed: boolean };

export function useSetupNeed(): SetupNeed {
  const settings = useBridgeQuery('settings.get', {});
  const profile = settings.data?.settings.activeProfile;
  const credentials = useBridgeQuery('credentials.status', { profile: profile ?? 'local' }, { enabled: profile !== undefined });
  if (settings.error || credentials.error) return { loading: false, error: settings.error ?? credentials.error, needed: false };
  if (!settings.data || !credentials.data) return { loading: true };
  const hasCredentials = credentials.data.stored || credentials.data.source !== 'none';
  return { loading: false, error: null, needed: !hasCredentials || !settings.data.settings.watchedFolder };
}
