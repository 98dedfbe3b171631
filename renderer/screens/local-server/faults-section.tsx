/**
 * Fault injection: rules that slow down, fail or drop requests whose path starts with a prefix, or hold back the
 * processing of the imports those requests create (processingDelayMs).
 */
import { Button, Group, NativeSelect, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import type { FaultRuleView } from '../../../shared/bridge';
import { ErrorAlert } from '../../components/error-alert';
import { useClearFaults, useFaults, useSetFaults } from '../../data/local-server-queries';
import { localServerText } from './local-server-text';
import { Section } from './section';

const t = localServerText.faults;
const EMPTY = { pathPrefix: '/law/api/v1/', latencyMs: '', errorRate: '', errorStatus: '503', dropRate: '', processingDelayMs: '' };
type Draft = typeof EMPTY;
type DraftErrors = Partial<Record<keyof Draft | 'form', string>>;

const percentText = (rate: number | undefined) => (rate === undefined ? t.none_ : `${Math.round(rate * 1000) / 10} %`);

/** The rule a draft stands for, or what is wrong with it (per field). */
export function ruleOfDraft(draft: Draft): { rule: FaultRuleView } | { errors: DraftErrors } {
  const errors: DraftErrors = {};
  const prefix = draft.pathPrefix.trim();
  if (!prefix.startsWith('/')) errors.pathPrefix = t.mustStartWithSlash;
  const whole = (value: string, key: keyof Draft, max: number) => {
    if (value.trim() === '') return undefined;
    if (!/^\d+$/.test(value.trim()) || Number(value) > max) { errors[key] = t.wholeNumber(0, max); return undefined; }
    return Number(value);
  };
  const rate = (value: string, key: keyof Draft) => {
    if (value.trim() === '') return undefined;
    const n = Number(value.trim().replace(',', '.'));
    if (!Number.isFinite(n) || n < 0 || n > 100) { errors[key] = t.percent; return undefined; }
    return n / 100;
  };
  const latencyMs = whole(draft.latencyMs, 'latencyMs', 60_000);
  const errorRate = rate(draft.errorRate, 'errorRate');
  const dropRate = rate(draft.dropRate, 'dropRate');
  const processingDelayMs = whole(draft.processingDelayMs, 'processingDelayMs', 600_000);
  const effects = [latencyMs, errorRate, dropRate, processingDelayMs];
  if (Object.keys(errors).length === 0 && effects.every((effect) => effect === undefined)) {
    errors.form = t.needsEffect;
  }
  if (Object.keys(errors).length > 0) return { errors };
  return {
    rule: {
      pathPrefix: prefix,
      ...(latencyMs !== undefined ? { latencyMs } : {}),
      ...(errorRate !== undefined ? { errorRate, errorStatus: Number(draft.errorStatus) as 500 | 503 } : {}),
      ...(dropRate !== undefined ? { dropRate } : {}),
      ...(processingDelayMs !== undefined ? { processingDelayMs } : {}),
    },
  };
}

export function FaultsSection() {
  const faults = useFaults(true);
  const set = useSetFaults();
  const clear = useClearFaults();
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [errors, setErrors] = useState<DraftErrors>({});
  const rules = faults.data?.rules ?? [];
  const field = (key: keyof Draft) => ({
    value: draft[key],
    onChange: (e: { currentTarget: { value: string } }) => setDraft({ ...draft, [key]: e.currentTarget.value }),
    error: errors[key],
  });

  const add = (event: FormEvent) => {
    event.preventDefault();
    const result = ruleOfDraft(draft);
    if ('errors' in result) { setErrors(result.errors); return; }
    setErrors({});
    // A rule for the same prefix replaces the old one: the server takes each prefix once.
    const others = rules.filter((r) => r.pathPrefix !== result.rule.pathPrefix);
    set.mutate({ rules: [...others, result.rule] }, { onSuccess: () => setDraft(EMPTY) });
  };
  const remove = (prefix: string) => set.mutate({ rules: rules.filter((r) => r.pathPrefix !== prefix) });
  const serverError = set.error?.fields?.[0]?.message;

  return (
    <Section title={t.title} intro={t.intro}>
      {faults.error && <ErrorAlert error={faults.error} />}
      {faults.isSuccess && rules.length === 0 && <Text size="sm">{t.none}</Text>}
      {rules.length > 0 && (
        <Table.ScrollContainer minWidth={760}>
          <Table withTableBorder captionSide="top" verticalSpacing={4}>
            <Table.Caption>{t.caption}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t.pathPrefix}</Table.Th>
                <Table.Th scope="col">{t.latencyMs}</Table.Th>
                <Table.Th scope="col">{t.errorRate}</Table.Th>
                <Table.Th scope="col">{t.errorStatus}</Table.Th>
                <Table.Th scope="col">{t.dropRate}</Table.Th>
                <Table.Th scope="col">{t.processingDelayMs}</Table.Th>
                <Table.Th scope="col">{t.actions}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rules.map((r) => (
                <Table.Tr key={r.pathPrefix}>
                  <Table.Th scope="row" ff="monospace" fw={400}>{r.pathPrefix}</Table.Th>
                  <Table.Td>{r.latencyMs ?? t.none_}</Table.Td>
                  <Table.Td>{percentText(r.errorRate)}</Table.Td>
                  <Table.Td>{r.errorRate !== undefined ? (r.errorStatus ?? 503) : t.none_}</Table.Td>
                  <Table.Td>{percentText(r.dropRate)}</Table.Td>
                  <Table.Td>{r.processingDelayMs ?? t.none_}</Table.Td>
                  <Table.Td>
                    <Button size="compact-sm" variant="subtle" color="red" aria-label={t.removeRule(r.pathPrefix)} onClick={() => remove(r.pathPrefix)}>{t.remove}</Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <form onSubmit={add} noValidate aria-label={t.add}>
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="sm">
            <TextInput label={t.pathPrefix} {...field('pathPrefix')} />
            <TextInput label={t.latencyMs} inputMode="numeric" {...field('latencyMs')} />
            <TextInput label={t.errorRate} inputMode="decimal" {...field('errorRate')} />
            <NativeSelect label={t.errorStatus} data={['503', '500']} {...field('errorStatus')} />
            <TextInput label={t.dropRate} inputMode="decimal" {...field('dropRate')} />
            <TextInput label={t.processingDelayMs} inputMode="numeric" {...field('processingDelayMs')} />
          </SimpleGrid>
          {errors.form && <Text size="sm" c="red" role="alert">{errors.form}</Text>}
          <Group>
            <Button type="submit" loading={set.isPending}>{t.add}</Button>
            {rules.length > 0 && <Button variant="light" color="red" onClick={() => clear.mutate({})} loading={clear.isPending}>{t.clear}</Button>}
          </Group>
        </Stack>
      </form>
      {set.error && <ErrorAlert error={set.error} title={t.failed} />}
      {serverError && <Text size="sm" c="red">{serverError}</Text>}
    </Section>
  );
}
