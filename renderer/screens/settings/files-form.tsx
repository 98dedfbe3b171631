/** How the watched folder's files are handled: type rules, stability, polling, archive, row checks, proxy. */
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Fieldset, Group, NumberInput, Radio, NativeSelect, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useFieldArray, useForm } from 'react-hook-form';
import { z } from 'zod';
import type { SettingsPatchView } from '../../../shared/bridge';
import { PREFLIGHT_MODES, settingsSchema, type Settings } from '../../../shared/settings.schema';
import { ErrorAlert } from '../../components/error-alert';
import { useBridge } from '../../data/bridge-context';
import { keyOf } from '../../data/bridge-queries';
import { applyFieldErrors } from './field-errors';
import { settingsText } from './settings-text';

const t = settingsText.files;
const s = settingsSchema.shape;
const blankIsNone = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

/** The settings schema's own rules for each field; only the wording of the time limits is in seconds. */
const filesFormSchema = z.object({
  fileTypeRules: s.fileTypeRules,
  stabilityMs: s.stabilityMs,
  usePolling: s.usePolling,
  pollIntervalMs: s.pollIntervalMs,
  archiveDir: z.preprocess(blankIsNone, s.watchedFolder),
  preflight: s.preflight,
  proxy: z.preprocess(blankIsNone, s.proxy),
});
type FilesFormInput = z.input<typeof filesFormSchema>;
type FilesFormOutput = z.output<typeof filesFormSchema>;

const inSeconds: z.core.$ZodErrorMap = (issue) => {
  const field = issue.path?.[0];
  if ((field === 'stabilityMs' || field === 'pollIntervalMs') && (issue.code === 'too_small' || issue.code === 'too_big' || issue.code === 'invalid_type')) {
    // Both limits are 100 to 600,000 ms in the settings schema.
    return settingsText.seconds(0.1, 600);
  }
  return undefined;
};

const valuesOf = (settings: Settings): FilesFormInput => ({
  fileTypeRules: settings.fileTypeRules,
  stabilityMs: settings.stabilityMs,
  usePolling: settings.usePolling,
  pollIntervalMs: settings.pollIntervalMs,
  archiveDir: settings.archive.dir ?? '',
  preflight: settings.preflight,
  proxy: settings.proxy ?? '',
});

/** The form's field for a settings path the core named in an error. */
function fieldOf(path: string): keyof FilesFormInput | `fileTypeRules.${number}.contains` | undefined {
  if (path === 'archive.dir') return 'archiveDir';
  const rule = /^fileTypeRules\.(\d+)\.contains$/.exec(path);
  if (rule) return `fileTypeRules.${Number(rule[1])}.contains`;
  const key = path.split('.')[0];
  return key && key in valuesOf(settingsSchema.parse({})) ? (key as keyof FilesFormInput) : undefined;
}

export function FilesForm({ settings }: { settings: Settings }) {
  const bridge = useBridge();
  const client = useQueryClient();
  const { register, control, handleSubmit, setError, formState, reset, watch } = useForm<FilesFormInput, unknown, FilesFormOutput>({
    resolver: zodResolver(filesFormSchema, { error: inSeconds }),
    defaultValues: valuesOf(settings),
  });
  const rules = useFieldArray({ control, name: 'fileTypeRules' });
  const [saved, setSaved] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const polling = watch('usePolling');

  const save = handleSubmit(async (values) => {
    setSaved(false); setFailure(null);
    const patch: SettingsPatchView = {
      fileTypeRules: values.fileTypeRules,
      stabilityMs: values.stabilityMs,
      usePolling: values.usePolling,
      pollIntervalMs: values.pollIntervalMs,
      archive: { dir: values.archiveDir ?? null },
      preflight: values.preflight,
      proxy: values.proxy ?? null,
    };
    try {
      const next = await bridge.call('settings.patch', patch);
      client.setQueryData(keyOf('settings.get', {}), next);
      reset(valuesOf(next.settings));
      setSaved(true);
    } catch (error) {
      if (!applyFieldErrors(error, setError, fieldOf)) setFailure(error);
    }
  });

  const seconds = (name: 'stabilityMs' | 'pollIntervalMs', label: string, description?: string) => (
    <Controller control={control} name={name} render={({ field, fieldState }) => (
      <NumberInput label={label} description={description} min={0.1} max={600} clampBehavior="none" allowNegative={false} step={0.5} decimalScale={1} w="fit-content"
        value={typeof field.value === 'number' ? field.value / 1000 : ''} onBlur={field.onBlur} name={field.name} ref={field.ref}
        onChange={(v) => field.onChange(typeof v === 'number' ? Math.round(v * 1000) : Number.NaN)}
        error={fieldState.error?.message} />
    )} />
  );

  return (
    <form onSubmit={(e) => void save(e)} noValidate aria-label={t.heading}>
      <Stack gap="md">
        <Fieldset legend={t.rules} variant="unstyled" styles={{ legend: { fontWeight: 600, fontSize: 'var(--mantine-font-size-sm)' } }}>
          <Text size="sm" mb="xs">{t.rulesHelp}</Text>
          <Stack gap="xs">
            {rules.fields.length === 0 && <Text size="sm">{t.noRules}</Text>}
            {rules.fields.map((rule, i) => (
              <Group key={rule.id} gap="xs" align="flex-start" role="group" aria-label={t.ruleLabel(i + 1)} wrap="wrap">
                <TextInput label={t.contains} {...register(`fileTypeRules.${i}.contains`)}
                  error={formState.errors.fileTypeRules?.[i]?.contains?.message} style={{ flex: '1 1 12rem' }} />
                <Controller control={control} name={`fileTypeRules.${i}.fileType`} render={({ field }) => (
                  <NativeSelect label={t.fileType} data={Object.entries(t.types).map(([value, label]) => ({ value, label }))}
                    value={field.value} onChange={(e) => field.onChange(e.currentTarget.value)} w="9rem" />
                )} />
                <Button variant="subtle" color="red" mt={25} onClick={() => rules.remove(i)} aria-label={t.removeRule(i + 1)}>✕</Button>
              </Group>
            ))}
            <Button variant="default" w="fit-content" onClick={() => rules.append({ contains: '', fileType: '1' })}>{t.addRule}</Button>
          </Stack>
        </Fieldset>
        {seconds('stabilityMs', t.stability, t.stabilityHelp)}
        <Controller control={control} name="usePolling" render={({ field }) => (
          <Switch label={t.polling} description={t.pollingHelp} checked={field.value ?? false}
            onChange={(e) => field.onChange(e.currentTarget.checked)} />
        )} />
        {polling && seconds('pollIntervalMs', t.pollInterval)}
        <TextInput label={t.archive} description={t.archiveHelp} autoComplete="off" {...register('archiveDir')}
          error={formState.errors.archiveDir?.message} />
        <Controller control={control} name="preflight" render={({ field }) => (
          <Radio.Group label={t.preflight} value={field.value ?? 'warn'} onChange={field.onChange}>
            <Stack gap={6} mt={6}>
              {PREFLIGHT_MODES.map((mode) => <Radio key={mode} value={mode} label={t.preflightModes[mode]} />)}
            </Stack>
          </Radio.Group>
        )} />
        <TextInput label={t.proxy} description={t.proxyHelp} type="url" autoComplete="off" {...register('proxy')}
          error={formState.errors.proxy?.message} />
        <Button type="submit" w="fit-content" loading={formState.isSubmitting}>{t.save}</Button>
        <div role="status">{saved && !formState.isDirty && <Alert color="green">{t.saved}</Alert>}</div>
        {failure !== null && <ErrorAlert error={failure} />}
      </Stack>
    </form>
  );
}
