/** Finished files: filters above a virtualised table that fetches only the windows in view. */
import { Button, Group, Paper, NativeSelect, Text, TextInput } from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import { NO_FILE_TYPE } from '../../../shared';
import type { JobView } from '../../../shared/bridge';
import { EmptyState } from '../../components/empty-state';
import { ErrorAlert } from '../../components/error-alert';
import { formatBytes, formatDateTime } from '../../components/format';
import { FOCUS_FALLBACK } from '../../components/focus-fallback';
import { PlainOutcomeBadge } from '../../components/outcome-badge';
import { useWindowList } from '../../components/use-window-list';
import { useBridgeEvent } from '../../data/use-bridge-event';
import { hasFilters, NO_FILTERS, queryOf, type FileFilters } from './history-filters';
import { historyText as t } from './history-text';
import { JobDetailDrawer } from './job-detail-drawer';
import { refusedWords } from './processed-words';
import { useJobRows, useJobTotal } from './use-job-pages';

/** Fixed row heights (one line wide, two lines narrow): nothing is measured while scrolling 10,000 rows. */
const ROW_HEIGHT = 49;
const NARROW_ROW_HEIGHT = 76;

/** Plain elements: thousands of rows pass by while scrolling, and each Mantine component costs its style props. */
const FileRow = memo(function FileRow({ job, onOpen }: { job: JobView; onOpen: (job: JobView) => void }) {
  // What the service made of the file once it arrived, when it said (rows it refused) comes before the row warnings:
  // they only foretold what it might refuse.
  const problems = refusedWords(job.importResult, 'rows')
    ?? (job.warningCount > 0 ? t.rowProblems(job.warningCount, job.outcome === 'rejected') : '');
  return (
    <>
      <div role="cell">
        <button type="button" onClick={() => onOpen(job)} className="history-name" title={job.name}>{job.name}</button>
      </div>
      <div role="cell">{job.outcome && <PlainOutcomeBadge outcome={job.outcome} />}</div>
      <div role="cell">{job.fileType ? t.types[job.fileType] : t.unknownType}</div>
      <div role="cell">{formatDateTime(job.foundAt)}</div>
      <div role="cell" className="history-optional">{formatBytes(job.size)}</div>
      {/* The count says what it counts (errors, warnings, rows refused), and a narrow window hides the headings. */}
      <div role="cell" title={problems || undefined}>{problems}</div>
    </>
  );
});

/**
 * Rows are keyed by their file, as the Queue's are, not by their place: a file that comes in puts every file one place
 * down, and a row keyed by place kept its button (and the keyboard focus on it, and the button a closing drawer gives
 * the focus back to) for whatever file came to that place. A row still loading has only its place. Two windows fetched
 * at different times can hold the same file for a moment (one shifted by a new file, the other not yet): the second
 * gets a key of its own.
 */
function rowKeys() {
  const used = new Set<string>();
  return {
    of(job: JobView | undefined, index: number): string {
      const key = job ? `job-${job.id}` : `loading-${index}`;
      const unique = used.has(key) ? `${key}-at-${index}` : key;
      used.add(unique);
      return unique;
    },
  };
}

function Filters({ value, onChange }: { value: FileFilters; onChange: (next: FileFilters) => void }) {
  const set = <K extends keyof FileFilters>(key: K, v: FileFilters[K]) => onChange({ ...value, [key]: v });
  return (
    <Group gap="sm" align="flex-end" mb="md" wrap="wrap">
      <TextInput label={t.filters.search} placeholder={t.filters.searchPlaceholder} value={value.text} type="search"
        onChange={(e) => set('text', e.currentTarget.value)} style={{ flex: '1 1 14rem' }} />
      <NativeSelect label={t.filters.outcome} value={value.outcome} w="10rem"
        data={[{ value: '', label: t.filters.all }, ...Object.entries(t.outcomes).map(([v, label]) => ({ value: v, label }))]}
        onChange={(e) => set('outcome', e.currentTarget.value as FileFilters['outcome'])} />
      <NativeSelect label={t.filters.type} value={value.type} w="9rem"
        data={[
          { value: '', label: t.filters.all }, ...Object.entries(t.types).map(([v, label]) => ({ value: v, label })),
          { value: NO_FILE_TYPE, label: t.unknownTypeFilter },
        ]}
        onChange={(e) => set('type', e.currentTarget.value as FileFilters['type'])} />
      <TextInput label={t.filters.from} type="date" value={value.from} onChange={(e) => set('from', e.currentTarget.value)} w="11rem" />
      <TextInput label={t.filters.to} type="date" value={value.to} onChange={(e) => set('to', e.currentTarget.value)} w="11rem" />
      {hasFilters(value) && <Button variant="subtle" onClick={() => onChange(NO_FILTERS)}>{t.filters.clear}</Button>}
    </Group>
  );
}

export function FilesView() {
  const [filters, setFilters] = useState<FileFilters>(NO_FILTERS);
  const [debouncedText] = useDebouncedValue(filters.text, 250);
  const query = useMemo(() => queryOf({ ...filters, text: debouncedText }), [filters, debouncedText]);
  const totalQuery = useJobTotal(query);
  const total = totalQuery.data?.total ?? 0;
  const narrow = useMediaQuery('(max-width: 62em)') ?? false;
  const rowHeight = narrow ? NARROW_ROW_HEIGHT : ROW_HEIGHT;
  const { listRef, virtualizer, scrollMargin } = useWindowList(total, { size: () => rowHeight, deps: [rowHeight], overscan: 12 });
  const rows = virtualizer.getVirtualItems();
  const rowAt = useJobRows(query, rows[0]?.index ?? 0, rows[rows.length - 1]?.index ?? -1);
  const keys = rowKeys();
  const [open, setOpen] = useState<JobView | null>(null);
  // What the service made of a file may come after it was filed (a `job` event, not a `result`): the rows say it, asked
  // for again at most once a second however many results come.
  const client = useQueryClient();
  const refetch = useRef<ReturnType<typeof setTimeout>>(undefined);
  useBridgeEvent('job', (job) => {
    if (!job.finished || !job.importResult) return;
    refetch.current ??= setTimeout(() => {
      refetch.current = undefined;
      void client.invalidateQueries({ queryKey: ['history', 'jobs'] });
    }, 1000);
  });
  useEffect(() => () => clearTimeout(refetch.current), []);

  return (
    <>
      <Filters value={filters} onChange={setFilters} />
      {totalQuery.error && <ErrorAlert error={totalQuery.error} />}
      {totalQuery.data && total === 0 && (hasFilters(filters)
        ? <EmptyState title={t.emptyFiltered.title}>{t.emptyFiltered.body}</EmptyState>
        : <EmptyState title={t.empty.title}>{t.empty.body}</EmptyState>)}
      {total > 0 && <Text fw={600} mb="xs" aria-live="polite">{t.count(total)}</Text>}
      <Paper withBorder style={{ display: total > 0 ? undefined : 'none' }}>
        {/* A focused row that scrolls out of the rendered window gives the focus to the table, not to the page. */}
        <div role="table" aria-label={t.tableLabel} aria-rowcount={total + 1} {...FOCUS_FALLBACK}>
          {/* The headings stay in sight below the app's header while the rows scroll by (app.css). */}
          <div role="rowgroup" className="history-head-group">
            <div role="row" aria-rowindex={1} className="history-row history-head">
              <div role="columnheader">{t.columns.name}</div>
              <div role="columnheader">{t.columns.outcome}</div>
              <div role="columnheader">{t.columns.type}</div>
              <div role="columnheader">{t.columns.found}</div>
              <div role="columnheader" className="history-optional">{t.columns.size}</div>
              <div role="columnheader">{t.columns.problems}</div>
            </div>
          </div>
          <div role="rowgroup" ref={listRef} className="history-body" style={{ position: 'relative', height: virtualizer.getTotalSize() }}>
            {rows.map((row) => {
              const job = rowAt(row.index);
              return (
                <div key={keys.of(job, row.index)} role="row" aria-rowindex={row.index + 2} className="history-row"
                  style={{ position: 'absolute', top: 0, left: 0, width: '100%', height: rowHeight, transform: `translateY(${row.start - scrollMargin}px)` }}>
                  {job ? <FileRow job={job} onOpen={setOpen} /> : <div role="cell">{t.loadingRow}</div>}
                </div>
              );
            })}
          </div>
        </div>
      </Paper>
      <JobDetailDrawer id={open?.id ?? null} name={open?.name ?? ''} onClose={() => setOpen(null)} />
    </>
  );
}
