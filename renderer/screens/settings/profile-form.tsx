/**
 * One environment's address and credentials. The secret is write-only: the field is always empty and says whether one
 * is stored; typing a new one replaces it. Used by Settings and by the first-run set-up.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Modal, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import type { CredentialTest, SettingsView } from '../../../shared/bridge';
import { baseUrlSchema, type ProfileName } from '../../../shared/settings.schema';
import { ErrorAlert, errorMessage } from '../../components/error-alert';
import { putAnswer, useBridgeMutation, useBridgeQuery } from '../../data/bridge-queries';
import { useBridge } from '../../data/bridge-context';
import { applyFieldErrors } from './field-errors';
import { settingsText } from './settings-text';
import { StatusNote } from './status-note';

const t = settingsText.profile;
const blankIsNone = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

const profileFormSchema = z.object({
  baseUrl: z.preprocess(blankIsNone, baseUrlSchema.optional()),
  clientId: z.string().trim().max(200),
  clientSecret: z.string().max(4096),
});
type ProfileFormInput = z.input<typeof profileFormSchema>;

export function ProfileForm({ profile, settings, mode = 'settings', onConnected, onEdited }: {
  profile: ProfileName;
  settings: SettingsView['settings'];
  mode?: 'settings' | 'first-run';
  onConnected?: (test: CredentialTest) => void;
  /** The clerk changed a field: a connection test made before no longer says anything about it. */
  onEdited?: () => void;
}) {
  const bridge = useBridge();
  const client = useQueryClient();
  const status = useBridgeQuery('credentials.status', { profile });
  const stored = status.data;
  const storedClientId = stored?.clientId ?? settings.profiles[profile].clientId ?? '';
  const form = useForm<ProfileFormInput, unknown, z.output<typeof profileFormSchema>>({
    resolver: zodResolver(profileFormSchema),
    defaultValues: { baseUrl: settings.profiles[profile].baseUrl ?? '', clientId: storedClientId, clientSecret: '' },
  });
  const { register, handleSubmit, setError, formState, reset, watch } = form;
  useEffect(() => {
    if (!formState.isDirty) reset({ baseUrl: settings.profiles[profile].baseUrl ?? '', clientId: storedClientId, clientSecret: '' });
  }, [settings, profile, storedClientId, formState.isDirty, reset]);

  const [saved, setSaved] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const [test, setTest] = useState<CredentialTest | null>(null);
  // The test uses the saved settings: with unsaved changes it is not run, and this says so until they are saved.
  const [saveFirst, setSaveFirst] = useState(false);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const testing = useBridgeMutation('credentials.test', {
    onSuccess: (result) => { setTest(result); if (result.ok) onConnected?.(result); },
  });
  const remove = useBridgeMutation('credentials.delete', {
    onSuccess: (next) => {
      putAnswer(client, 'credentials.status', { profile }, next);
      // The core also took the client ID out of the settings.
      void client.invalidateQueries({ queryKey: ['settings.get'] });
      reset({ ...form.getValues(), clientId: '', clientSecret: '' });
      // The Remove button is gone: the clerk goes on where new credentials are typed. (Not setFocus: reset has just
      // let go of the fields, which register again on the next render.)
      document.getElementById(`profile-${profile}-client-id`)?.focus();
    },
  });
  // A test result (and "Saved.") is about the fields as they were: once the clerk edits one, it no longer holds and
  // goes. (Only the clerk's typing: the form's own resets after a save or new settings change nothing of that.)
  const { reset: resetTesting } = testing;
  const edited = useRef(onEdited);
  edited.current = onEdited;
  useEffect(() => {
    const { unsubscribe } = watch((_values, { type }) => {
      if (type !== 'change') return;
      setSaved(false);
      setTest(null);
      resetTesting();
      edited.current?.();
    });
    return unsubscribe;
  }, [watch, resetTesting]);
  const runTest = () => {
    setTest(null);
    if (formState.isDirty) {
      testing.reset();
      return setSaveFirst(true);
    }
    setSaveFirst(false);
    testing.mutate({ profile });
  };

  const save = handleSubmit(async (values) => {
    setSaved(false); setFailure(null); setTest(null); setSaveFirst(false);
    const hasSecret = values.clientSecret.length > 0;
    if (hasSecret && !values.clientId) return setError('clientId', { message: t.clientIdNeeded });
    if (!hasSecret && values.clientId && values.clientId !== storedClientId) return setError('clientSecret', { message: t.secretNeeded });
    try {
      if ((values.baseUrl ?? '') !== (settings.profiles[profile].baseUrl ?? '')) {
        const next = await bridge.call('settings.patch', { profiles: { [profile]: { baseUrl: values.baseUrl ?? null } } });
        putAnswer(client, 'settings.get', {}, next);
      }
      if (hasSecret) {
        const next = await bridge.call('credentials.set', { profile, clientId: values.clientId, clientSecret: values.clientSecret });
        putAnswer(client, 'credentials.status', { profile }, next);
      }
      reset({ ...values, baseUrl: values.baseUrl ?? '', clientSecret: '' });
      setSaved(true);
      if (mode === 'first-run') testing.mutate({ profile });
    } catch (error) {
      const placed = applyFieldErrors(error, setError, (path) => {
        if (path.endsWith('baseUrl')) return 'baseUrl';
        if (path === 'clientId') return 'clientId';
        if (path === 'clientSecret') return 'clientSecret';
        return undefined;
      });
      if (!placed) setFailure(error);
    }
  });

  const secretHelp = stored?.stored
    ? (stored.source === 'environment' ? t.secretFromEnvironment : t.secretStored)
    : t.secretNone;
  const id = `profile-${profile}`;
  const name = settingsText.environments.names[profile];
  return (
    <form onSubmit={(e) => void save(e)} noValidate aria-label={name}>
      <Stack gap="sm">
        <TextInput id={`${id}-base-url`} label={t.baseUrl} description={t.baseUrlHelp} type="url" autoComplete="off"
          {...register('baseUrl')} error={formState.errors.baseUrl?.message} />
        <TextInput id={`${id}-client-id`} label={t.clientId} autoComplete="off" {...register('clientId')}
          error={formState.errors.clientId?.message} />
        <PasswordInput id={`${id}-client-secret`} label={t.clientSecret} description={secretHelp} autoComplete="new-password"
          {...register('clientSecret')} error={formState.errors.clientSecret?.message} />
        {stored?.keychainProblem && <Alert color="red" title={t.keychainProblem}>{stored.keychainProblem}</Alert>}
        <Group gap="xs">
          <Button type="submit" loading={formState.isSubmitting || (mode === 'first-run' && testing.isPending)}>
            {mode === 'first-run' ? `${t.save} and ${t.test.toLowerCase()}` : t.save}
          </Button>
          {mode === 'settings' && (
            <Button variant="default" loading={testing.isPending} onClick={runTest}>{t.test}</Button>
          )}
          {mode === 'settings' && stored?.stored && stored.source === 'keychain' && (
            <Button variant="subtle" color="red" loading={remove.isPending}
              onClick={() => { remove.reset(); setConfirmRemove(true); }}>{t.remove}</Button>
          )}
        </Group>
        <div role="status">
          {saved && !test && !testing.isPending && <StatusNote color="green">{t.saved}</StatusNote>}
          {test?.ok && <StatusNote color="green">{t.testOk(Math.round(test.ms), test.scopes.join(', ') || '—')}</StatusNote>}
          {remove.isSuccess && <StatusNote color="gray">{t.removed}</StatusNote>}
        </div>
        {saveFirst && formState.isDirty && <Alert color="yellow" role="alert">{t.saveFirst}</Alert>}
        {test && !test.ok && <Alert color="red" title={t.testFailed} role="alert">{test.message}</Alert>}
        {testing.error && <ErrorAlert error={testing.error} title={t.testFailed} />}
        {failure !== null && <ErrorAlert error={failure} />}
        {remove.error && <Alert color="red" role="alert">{errorMessage(remove.error)}</Alert>}
      </Stack>
      <Modal opened={confirmRemove} onClose={() => setConfirmRemove(false)} title={t.removeConfirm.title(name)} centered
        closeButtonProps={{ 'aria-label': t.removeConfirm.close }} styles={{ title: { fontWeight: 700 } }}>
        <Text size="sm">{t.removeConfirm.body(name)}</Text>
        <Group justify="flex-end" gap="xs" mt="md">
          <Button variant="default" data-autofocus onClick={() => setConfirmRemove(false)}>{t.removeConfirm.cancel}</Button>
          <Button color="red" onClick={() => { setConfirmRemove(false); remove.mutate({ profile }); }}>{t.removeConfirm.confirm}</Button>
        </Group>
      </Modal>
    </form>
  );
}
