/** How the watched folder's files are handled: type rules, stability, polling, archive, row checks, proxy. */
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Fieldset, Group, NumberInput, Radio, NativeSelect, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useFieldArray, useForm } from 'react-hook-form';
import { z } from 'zod';
import type { SettingsPatchView } from '../../../shared/bridge';
import { PREFLIGHT_MODES, settingsSchema, type Settings } from '../../../shared/settings.schema';
import { ErrorAlert } from '../../components/error-alert';
import { useBridge } from '../../data/bridge-context';
import { putAnswer } from '../../data/bridge-queries';
import { applyFieldErrors } from './field-errors';
import { settingsText } from './settings-text';
import { StatusNote } from './status-note';

const t = settingsText.files;
const s = settingsSchema.shape;
const blankIsNone = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

/**
 * A time typed in seconds, as the number input holds it: a number, or the text of one being typed ("2.", "-", "").
 * It becomes milliseconds only if it is one exactly (up to the float noise of 1.1 * 1000); anything else is left as
 * typed for the settings schema to refuse, so a mistyped time gets an error and is never quietly changed.
 */
const secondsToMs = (value: number | string): number => {
  const seconds = typeof value === 'number' ? value : value.trim() !== '' ? Number(value) : Number.NaN;
  const ms = seconds * 1000;
  return Math.abs(ms - Math.round(ms)) < 1e-6 ? Math.round(ms) : ms;
};
const msLimits = (field: 'stabilityMs' | 'pollIntervalMs') => {
  const inner = s[field].unwrap();
  return { min: (inner.minValue ?? 0) / 1000, max: (inner.maxValue ?? 0) / 1000 };
};
const LIMITS = { stabilitySeconds: msLimits('stabilityMs'), pollIntervalSeconds: msLimits('pollIntervalMs') };
type SecondsField = keyof typeof LIMITS;

/** The settings schema's own rules for each field; the times are typed in seconds and checked in milliseconds. */
const filesFormSchema = z.object({
  fileTypeRules: s.fileTypeRules,
  stabilitySeconds: z.preprocess(secondsToMs, s.stabilityMs.unwrap()),
  usePolling: s.usePolling,
  pollIntervalSeconds: z.preprocess(secondsToMs, s.pollIntervalMs.unwrap()),
  archiveDir: z.preprocess(blankIsNone, s.watchedFolder),
  preflight: s.preflight,
  proxy: z.preprocess(blankIsNone, s.proxy),
});
type FilesFormInput = z.input<typeof filesFormSchema>;
type FilesFormOutput = z.output<typeof filesFormSchema>;

const inSeconds: z.core.$ZodErrorMap = (issue) => {
  const field = issue.path?.[0];
  if (field !== 'stabilitySeconds' && field !== 'pollIntervalSeconds') return undefined;
  // A whole number of seconds and thousandths is all the settings hold (.int() on the milliseconds).
  if (issue.code === 'invalid_type' && issue.expected === 'int') return settingsText.secondsPrecision;
  return settingsText.seconds(LIMITS[field].min, LIMITS[field].max);
};

const valuesOf = (settings: Settings): FilesFormInput => ({
  fileTypeRules: settings.fileTypeRules,
  stabilitySeconds: settings.stabilityMs / 1000,
  usePolling: settings.usePolling,
  pollIntervalSeconds: settings.pollIntervalMs / 1000,
  archiveDir: settings.archive.dir ?? '',
  preflight: settings.preflight,
  proxy: settings.proxy ?? '',
});

/** The form's field for a settings path the core named in an error. */
function fieldOf(path: string): keyof FilesFormInput | `fileTypeRules.${number}.contains` | undefined {
  if (path === 'archive.dir') return 'archiveDir';
  if (path === 'stabilityMs') return 'stabilitySeconds';
  if (path === 'pollIntervalMs') return 'pollIntervalSeconds';
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
      stabilityMs: values.stabilitySeconds,
      usePolling: values.usePolling,
      pollIntervalMs: values.pollIntervalSeconds,
      archive: { dir: values.archiveDir ?? null },
      preflight: values.preflight,
      proxy: values.proxy ?? null,
    };
    try {
      const next = await bridge.call('settings.patch', patch);
      putAnswer(client, 'settings.get', {}, next);
      reset(valuesOf(next.settings));
      setSaved(true);
    } catch (error) {
      if (!applyFieldErrors(error, setError, fieldOf)) setFailure(error);
    }
  });

  // The input shows exactly what is typed (a minus sign too: clampBehavior none and negatives allowed, or Mantine
  // would drop the "-" of -5 or clamp 900 to 600 on its own); the schema says what is wrong next to the field.
  const seconds = (name: SecondsField, label: string, description?: string) => (
    <Controller control={control} name={name} render={({ field, fieldState }) => (
      <NumberInput label={label} description={description} min={LIMITS[name].min} max={LIMITS[name].max} clampBehavior="none"
        step={0.5} w="fit-content" value={field.value} onBlur={field.onBlur} name={field.name} ref={field.ref}
        onChange={field.onChange} error={fieldState.error?.message} />
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
        {seconds('stabilitySeconds', t.stability, t.stabilityHelp)}
        <Controller control={control} name="usePolling" render={({ field }) => (
          <Switch label={t.polling} description={t.pollingHelp} checked={field.value ?? false}
            onChange={(e) => field.onChange(e.currentTarget.checked)} />
        )} />
        {polling && seconds('pollIntervalSeconds', t.pollInterval)}
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
        <div role="status">{saved && !formState.isDirty && <StatusNote color="green">{t.saved}</StatusNote>}</div>
        {failure !== null && <ErrorAlert error={failure} />}
      </Stack>
    </form>
  );
}
