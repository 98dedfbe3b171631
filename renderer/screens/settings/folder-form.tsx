/** The watched folder: a typed path, or the system's folder dialog in the desktop app. */
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Stack, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { settingsSchema } from '../../../shared/settings.schema';
import { ErrorAlert } from '../../components/error-alert';
import { useBridge } from '../../data/bridge-context';
import { putAnswer } from '../../data/bridge-queries';
import { applyFieldErrors } from './field-errors';
import { settingsText } from './settings-text';
import { StatusNote } from './status-note';

const t = settingsText.folder;
const folderFormSchema = z.object({ folder: settingsSchema.shape.watchedFolder.unwrap().min(1, 'must not be empty') });

/**
 * `onSaved` runs once the folder is saved; when it answers with words (the first run found no folder there), they are
 * shown at the field as its error, not as saved.
 */
export function FolderForm({ folder, onSaved, saveLabel = t.save }: {
  folder: string | undefined;
  onSaved?: (folder: string) => void | Promise<string | undefined>;
  saveLabel?: string;
}) {
  const bridge = useBridge();
  const client = useQueryClient();
  const { register, handleSubmit, setError, setValue, formState } = useForm({
    resolver: zodResolver(folderFormSchema),
    defaultValues: { folder: folder ?? '' },
  });
  const [saved, setSaved] = useState<string | null>(null);
  const [failure, setFailure] = useState<unknown>(null);

  const save = handleSubmit(async ({ folder: next }) => {
    setSaved(null); setFailure(null);
    try {
      const state = await bridge.call('watch.setFolder', { folder: next });
      putAnswer(client, 'watch.state', {}, state);
      await client.invalidateQueries({ queryKey: ['settings.get'] });
      const problem = await onSaved?.(next);
      if (problem) return setError('folder', { message: problem }, { shouldFocus: true });
      setSaved(next);
    } catch (error) {
      if (!applyFieldErrors(error, setError, (path) => (path === 'folder' || path === 'watchedFolder' ? 'folder' : undefined))) setFailure(error);
    }
  });
  const browse = async () => {
    setFailure(null);
    try {
      const picked = await bridge.call('watch.browse', {});
      if (picked.folder) setValue('folder', picked.folder, { shouldDirty: true, shouldValidate: true });
    } catch (error) {
      setFailure(error);
    }
  };

  return (
    <form onSubmit={(e) => void save(e)} noValidate aria-label={t.heading}>
      <Stack gap="sm">
        <Group gap="xs" align="flex-end" wrap="wrap">
          <TextInput label={t.label} description={t.description} placeholder={t.placeholder} autoComplete="off"
            {...register('folder')} error={formState.errors.folder?.message} style={{ flex: '1 1 18rem' }} />
          {bridge.platform === 'desktop' && <Button variant="default" onClick={() => void browse()}>{t.browse}</Button>}
        </Group>
        <Button type="submit" w="fit-content" loading={formState.isSubmitting}>{saveLabel}</Button>
        <div role="status">{saved && <StatusNote color="green">{t.saved(saved)}</StatusNote>}</div>
        {failure !== null && <ErrorAlert error={failure} />}
      </Stack>
    </form>
  );
}
