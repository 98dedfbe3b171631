// @vitest-environment happy-dom
import '../../test-kit/setup-dom';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { JobQuery } from '../../../shared/bridge';
import { useLiveUpdates } from '../../data/use-bridge-event';
import { Notices } from '../../shell/notices';
import { createMemoryBridge, makeJob } from '../../test-kit/memory-bridge';
import { renderScreen } from '../../test-kit/render-screen';
import { HistoryScreen } from './history-screen';

/** History under the messages above every screen, kept from the core's events as the app keeps them. */
function HistoryWithNotices() {
  useLiveUpdates();
  return <><Notices /><HistoryScreen /></>;
}

const refused = () => makeJob({
  name: 'census-bad.csv', state: 'rejected', lastError: '2 of 5 rows have problems, and row problems block uploads',
  archivedPath: '/data/exports/rejected/census-bad.csv', warningCount: 2, referenceDate: '2026-03-01T00:00:00Z',
  warnings: [
    { line: 3, field: 'hireDate', message: 'hireDate must be a date YYYY-MM-DD' },
    { line: 5, field: 'ssn', message: 'must be 9 digits' },
  ],
});

const queries = (bridge: ReturnType<typeof createMemoryBridge>) =>
  bridge.calls.filter((c) => c.method === 'jobs.query').map((c) => c.request as JobQuery);

describe('HistoryScreen', () => {
  it('tells a new user what will appear here', async () => {
    renderScreen(<HistoryScreen />);
    expect(await screen.findByRole('heading', { name: 'No finished files yet' })).toBeTruthy();
  });

  it('shows 10,000 files by fetching only the windows in view', async () => {
    const jobs = Array.from({ length: 10_000 }, (_, i) => makeJob({ name: `census-${String(i).padStart(5, '0')}.csv` }));
    const bridge = createMemoryBridge({ jobs });
    renderScreen(<HistoryScreen />, bridge);
    expect(await screen.findByText('10,000 files')).toBeTruthy();
    const table = screen.getByRole('table', { name: 'Finished files' });
    expect(table.getAttribute('aria-rowcount')).toBe('10001');
    await waitFor(() => expect(within(table).getAllByRole('button').length).toBeGreaterThan(5));
    expect(within(table).getAllByRole('row').length).toBeLessThan(120);
    expect(queries(bridge).every((q) => (q.limit ?? 0) <= 100)).toBe(true);
    expect(queries(bridge).length).toBeLessThan(5);
  });

  it('searches by name and filters by outcome', async () => {
    const bridge = createMemoryBridge({ jobs: [
      makeJob({ name: 'census-jan.csv' }), makeJob({ name: 'receipt-jan.csv', fileType: '2' }), refused(),
    ] });
    renderScreen(<HistoryScreen />, bridge);
    await screen.findByText('3 files');
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search by file name' }), 'receipt');
    expect(await screen.findByText('1 file')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'receipt-jan.csv' })).toBeTruthy();
    await userEvent.clear(screen.getByRole('searchbox', { name: 'Search by file name' }));
    await screen.findByText('3 files');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Outcome' }), 'Refused');
    expect(await screen.findByText('1 file')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'census-bad.csv' })).toBeTruthy();
    expect(queries(bridge).at(-1)?.outcomes).toEqual(['rejected']);
  });

  it('filters by type and date, and says when nothing matches', async () => {
    const bridge = createMemoryBridge({ jobs: [
      makeJob({ name: 'census-a.csv', foundAt: new Date(2026, 10, 1, 9).getTime() }),
      makeJob({ name: 'receipt-b.csv', fileType: '2', foundAt: new Date(2026, 10, 15, 9).getTime() }),
    ] });
    renderScreen(<HistoryScreen />, bridge);
    await screen.findByText('2 files');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Type' }), 'Receipt');
    expect(await screen.findByText('1 file')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Found to'), '2026-11-10');
    expect(await screen.findByRole('heading', { name: 'No file matches' })).toBeTruthy();
    // The day sent as the instant it ends here: the start of the next one.
    expect(queries(bridge).at(-1)).toMatchObject({ fileTypes: ['2'], foundBefore: new Date(2026, 10, 11).getTime() });
    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(await screen.findByText('2 files')).toBeTruthy();
  });

  it('finds a refused file whose type was never read ("—") under the type Not known', async () => {
    const bridge = createMemoryBridge({ jobs: [
      makeJob({ name: 'census-a.csv' }), makeJob({ name: 'no-header.csv', state: 'rejected', fileType: undefined, lastError: 'the header is missing' }),
    ] });
    renderScreen(<HistoryScreen />, bridge);
    await screen.findByText('2 files');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Type' }), 'Not known (—)');
    expect(await screen.findByText('1 file')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'no-header.csv' })).toBeTruthy();
    expect(queries(bridge).at(-1)).toMatchObject({ fileTypes: ['none'] });
  });

  it('opens a refused file to its reasons with line numbers, and puts it back in the queue', async () => {
    const bridge = createMemoryBridge({ jobs: [refused()] });
    renderScreen(<HistoryScreen />, bridge);
    await userEvent.click(await screen.findByRole('button', { name: 'census-bad.csv' }));
    const dialog = await screen.findByRole('dialog', { name: 'census-bad.csv' });
    expect(within(dialog).getByText('Why it was refused')).toBeTruthy();
    expect(within(dialog).getByText(/2 of 5 rows have problems/)).toBeTruthy();
    const table = within(dialog).getByRole('table', { name: 'Rows with problems' });
    // A field reads as the forms label it, with the CSV column's name below it for whoever fixes the file.
    const rows = within(table).getAllByRole('row').map((row) => [...row.querySelectorAll('th, td')].map((c) =>
      [...c.querySelectorAll('[data-part]')].map((part) => `${part.getAttribute('data-part')}: ${part.textContent}`).join(', ') || c.textContent));
    expect(rows).toEqual([
      ['Line', 'Field', 'Problem'],
      // The core's message names the field by its key too; it reads with the label as well.
      ['3', 'label: Hire date, key: hireDate', 'Hire date must be a date YYYY-MM-DD'],
      ['5', 'label: SSN, key: ssn', 'must be 9 digits'],
    ]);
    expect(within(table).getByText('Hire date').closest('td')?.getAttribute('title')).toBe('hireDate');
    // The reference date is a calendar day in the clerk's locale, like the other dates, not an ISO timestamp.
    const facts = within(dialog).getByRole('rowheader', { name: 'Reference date' }).closest('tr')!;
    const shown = within(facts).getByRole('cell').textContent;
    expect(shown).toBe(new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' }).format(Date.UTC(2026, 2, 1)));
    expect(shown).not.toMatch(/2026-03-01/);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Show in folder' }));
    expect(await within(dialog).findByText('/data/exports/rejected/census-bad.csv', { selector: 'code' })).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Put back in the queue' }));
    expect(await within(dialog).findByText(/The file is back in the queue/)).toBeTruthy();
    expect(bridge.calls.some((c) => c.method === 'jobs.requeue')).toBe(true);
    // The file has left rejected/: the place shown before, and the button to show it, are gone.
    expect(within(dialog).queryByText('/data/exports/rejected/census-bad.csv', { selector: 'code' })).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Show in folder' })).toBeNull();
    // The facts say where it is now, not that it is filed in rejected/; the help no longer sends the clerk there.
    const fact = (label: string) => within(dialog).queryByRole('rowheader', { name: label })?.closest('tr')?.querySelector('td')?.textContent;
    expect(fact('Put back in the queue as')).toBe('/data/exports/census-bad.csv');
    expect(fact('Filed in')).toBeUndefined();
    expect(within(dialog).queryByText(/it is in the rejected folder/)).toBeNull();
  });

  it('puts a refused file back once on a double click, and offers nothing to put back once it has left rejected/', async () => {
    const bridge = createMemoryBridge({ jobs: [refused()] });
    renderScreen(<HistoryScreen />, bridge);
    await userEvent.click(await screen.findByRole('button', { name: 'census-bad.csv' }));
    const dialog = await screen.findByRole('dialog', { name: 'census-bad.csv' });
    await userEvent.dblClick(within(dialog).getByRole('button', { name: 'Put back in the queue' }));
    expect(await within(dialog).findByText(/The file is back in the queue/)).toBeTruthy();
    expect(within(dialog).queryByText(/can go back in the queue/)).toBeNull();
    expect(bridge.calls.filter((c) => c.method === 'jobs.requeue')).toHaveLength(1);

    // Opened again later, the old entry says where the file went instead of offering a put-back that must fail.
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await userEvent.click(screen.getAllByRole('button', { name: 'census-bad.csv' })[0]!);
    const again = await screen.findByRole('dialog', { name: 'census-bad.csv' });
    expect(await within(again).findByText(/no longer in the folder it was filed in: it was put back in the queue already/)).toBeTruthy();
    expect(within(again).queryByRole('button', { name: 'Put back in the queue' })).toBeNull();
    // It was filed there once, and is not now.
    expect(within(again).getByRole('rowheader', { name: 'Was filed in' }).closest('tr')?.querySelector('td')?.textContent).toBe('/data/exports/rejected/census-bad.csv');
    expect(within(again).queryByRole('rowheader', { name: 'Filed in' })).toBeNull();
  });

  it('counts a refused file\'s row problems as errors and an uploaded file\'s as warnings', async () => {
    const bridge = createMemoryBridge({ jobs: [refused(), makeJob({ name: 'census-warn.csv', state: 'uploaded', warningCount: 1 })] });
    renderScreen(<HistoryScreen />, bridge);
    await screen.findByText('2 files');
    expect(screen.getByRole('columnheader', { name: 'Problems' })).toBeTruthy();
    const cellOf = (name: string) => screen.getByRole('button', { name }).closest('[role="row"]')!.lastElementChild!.textContent;
    expect(cellOf('census-bad.csv')).toBe('2 errors');
    expect(cellOf('census-warn.csv')).toBe('1 warning');
  });

  it('puts a refused file back: focus moves to the word that it is back, and the message that it was refused goes', async () => {
    const job = refused();
    const bridge = createMemoryBridge({ jobs: [job] });
    renderScreen(<HistoryWithNotices />, bridge);
    bridge.emit('notice', { level: 'warning', message: 'census-bad.csv was refused: 2 of 5 rows have problems', jobId: job.id });
    bridge.emit('notice', { level: 'info', message: 'payroll.xlsx is not a CSV export' });
    const messages = await screen.findByRole('region', { name: 'Messages' });
    expect(await within(messages).findByText(/census-bad.csv was refused/)).toBeTruthy();

    await userEvent.click(await screen.findByRole('button', { name: 'census-bad.csv' }));
    const dialog = await screen.findByRole('dialog', { name: 'census-bad.csv' });
    within(dialog).getByRole('button', { name: 'Put back in the queue' }).focus();
    await userEvent.keyboard('{Enter}');
    const back = await within(dialog).findByText(/The file is back in the queue/);
    await waitFor(() => expect(document.activeElement).toBe(back.closest('[role="status"]')));
    await waitFor(() => expect(within(messages).queryByText(/census-bad.csv was refused/)).toBeNull());
    // A message about something else stays.
    expect(within(messages).getByText(/payroll.xlsx is not a CSV export/)).toBeTruthy();
  });

  it('shows the row warnings of a file uploaded with them', async () => {
    const bridge = createMemoryBridge({ jobs: [makeJob({
      name: 'census-warn.csv', state: 'uploaded', warningCount: 1, warnings: [
        { line: 7, field: 'salary', message: 'must be a number' }, { line: 8, field: 'constructor', message: 'is not a column' },
      ],
    })] });
    renderScreen(<HistoryScreen />, bridge);
    await userEvent.click(await screen.findByRole('button', { name: 'census-warn.csv' }));
    const dialog = await screen.findByRole('dialog', { name: 'census-warn.csv' });
    expect(within(dialog).getByText(/1 row has a problem/)).toBeTruthy();
    const table = within(dialog).getByRole('table', { name: 'Rows with warnings' });
    expect(within(table).getByRole('cell', { name: '7' })).toBeTruthy();
    // A name that is no field of the template is shown as it came.
    expect(within(table).getByRole('cell', { name: 'salary' })).toBeTruthy();
    expect(within(table).getByRole('cell', { name: 'constructor' })).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Put back in the queue' })).toBeNull();
  });

  it('says where a duplicate went: the duplicates folder, or nowhere here when another uploader took the file over', async () => {
    const takenOver = 'another uploader ("pc-2") took this file over while this one was stopped or silent, and sends it';
    const bridge = createMemoryBridge({ jobs: [
      makeJob({ name: 'census-dup.csv', state: 'duplicate', archivedPath: '/data/exports/duplicates/census-dup.csv' }),
      makeJob({ name: 'census-taken.csv', state: 'duplicate', lastError: takenOver }),
    ] });
    renderScreen(<HistoryScreen />, bridge);
    await userEvent.click(await screen.findByRole('button', { name: 'census-dup.csv' }));
    const moved = await screen.findByRole('dialog', { name: 'census-dup.csv' });
    expect(within(moved).getByText(/It was moved to the duplicates folder\./)).toBeTruthy();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'census-dup.csv' })).toBeNull());
    await userEvent.click(screen.getByRole('button', { name: 'census-taken.csv' }));
    const taken = await screen.findByRole('dialog', { name: 'census-taken.csv' });
    expect(within(taken).getByText(takenOver)).toBeTruthy();
    expect(within(taken).queryByText(/moved to the duplicates folder/)).toBeNull();
  });

  it('lists sent batches with their outcome', async () => {
    const at = Date.UTC(2026, 10, 20, 10);
    const bridge = createMemoryBridge({ batches: [
      { id: 1, kind: 'census', records: 3, state: 'sent', createdAt: at, stateChangedAt: at, importId: '5b1e-import' },
      { id: 2, kind: 'receipt', records: 12, state: 'failed', createdAt: at + 1000, stateChangedAt: at, error: 'the service refused 2 records' },
    ] });
    renderScreen(<HistoryScreen />, bridge);
    await userEvent.click(await screen.findByRole('radio', { name: 'Sent records' }));
    const table = await screen.findByRole('table', { name: 'Batches of records sent' });
    expect(within(table).getByText('Census batch 1')).toBeTruthy();
    expect(within(table).getByText('Failed')).toBeTruthy();
    expect(within(table).getByText('the service refused 2 records')).toBeTruthy();
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Outcome' }), 'Sent');
    await waitFor(() => expect(within(table).queryByText('Receipt batch 2')).toBeNull());
    expect(screen.getByText('1 batch')).toBeTruthy();
  });

  describe('what the service made of a file or batch once it arrived (the local test server says it)', () => {
    const unknown = 'employeeRegistration E-ACC-1 is not known from any census import; send the employee\'s census record first';
    const processed = (accepted: number, rejected: number) => ({ status: 'PROCESSED' as const, acceptedRecords: accepted, rejectedRecords: rejected, errorCount: rejected });

    it('says how many records of a sent batch were refused, and why, in the form\'s words; a result not known says nothing', async () => {
      const at = Date.UTC(2026, 10, 24, 16);
      const bridge = createMemoryBridge({ batches: [
        { id: 1, kind: 'receipt', records: 1, state: 'sent', createdAt: at, stateChangedAt: at, importId: 'imp-1' },
        {
          id: 2, kind: 'receipt', records: 2, state: 'sent', createdAt: at + 1000, stateChangedAt: at, importId: 'imp-2',
          importResult: processed(1, 1), importErrors: [{ index: 1, field: 'employeeRegistration', message: unknown }],
        },
        { id: 3, kind: 'census', records: 2, state: 'sent', createdAt: at + 2000, stateChangedAt: at, importId: 'imp-3', importResult: processed(2, 0), importErrors: [] },
        {
          id: 4, kind: 'census', records: 3, state: 'sent', createdAt: at + 3000, stateChangedAt: at, importId: 'imp-4',
          importResult: { status: 'REJECTED', acceptedRecords: 0, rejectedRecords: 0, errorCount: 0, reason: 'the import could not be processed because of an internal error' },
        },
      ] });
      renderScreen(<HistoryScreen />, bridge);
      await userEvent.click(await screen.findByRole('radio', { name: 'Sent records' }));
      const table = await screen.findByRole('table', { name: 'Batches of records sent' });
      const cells = (name: string) => within(within(table).getByText(name).closest('tr')!).getAllByRole('cell').map((cell) => cell.textContent);
      // Sent still (it arrived), and a second fact beside it; the reason names the record as the form does.
      expect(cells('Receipt batch 2')[1]).toBe('Sent1 of 2 records refused');
      expect(cells('Receipt batch 2')[6]).toBe('Receipt 2: Employee registration E-ACC-1 is not known from any census import; send the employee\'s census record first');
      // Not known (the production service tells it on its webhook only), or all taken: "Sent" as before, no problem.
      expect(cells('Receipt batch 1')[1]).toBe('Sent');
      expect(cells('Receipt batch 1')[6]).toBe('');
      expect(cells('Census batch 3')[1]).toBe('Sent');
      // Refused as a whole after it arrived: said, with the service's reason.
      expect(cells('Census batch 4')[1]).toBe('SentAll refused');
      expect(cells('Census batch 4')[6]).toBe('The service refused the whole batch after it arrived: the import could not be processed because of an internal error');
    });

    it('says how many rows of an uploaded file were refused, with the reasons and line numbers in its details', async () => {
      const bridge = createMemoryBridge({ jobs: [
        makeJob({
          name: 'receipts-march.csv', fileType: '2', warningCount: 1, importResult: processed(1, 1),
          importErrors: [{ line: 3, field: 'employeeRegistration', message: unknown }],
        }),
        makeJob({ name: 'census-all-taken.csv', importResult: processed(2, 0), importErrors: [] }),
        makeJob({ name: 'census-not-known.csv' }),
      ] });
      renderScreen(<HistoryScreen />, bridge);
      await screen.findByText('3 files');
      const rowOf = (name: string) => screen.getByRole('button', { name }).closest('[role="row"]')!;
      // The service's verdict comes before the row warnings, which only foretold it.
      expect(rowOf('receipts-march.csv').lastElementChild!.textContent).toBe('1 of 2 rows refused');
      expect(within(rowOf('receipts-march.csv') as HTMLElement).getByText('Uploaded')).toBeTruthy();
      expect(rowOf('census-all-taken.csv').lastElementChild!.textContent).toBe('');
      expect(rowOf('census-not-known.csv').lastElementChild!.textContent).toBe('');

      await userEvent.click(screen.getByRole('button', { name: 'receipts-march.csv' }));
      const dialog = await screen.findByRole('dialog', { name: 'receipts-march.csv' });
      expect(within(dialog).getByText('The service processed the file: it took 1 of its 2 rows and refused 1. Correct the refused row in your payroll system, then send only it again (Send records, or a file of that row alone): the whole file sent again would import the other rows a second time.')).toBeTruthy();
      const refused = within(dialog).getByRole('table', { name: 'Rows the service refused' });
      const rows = within(refused).getAllByRole('row').map((row) => [...row.querySelectorAll('td')].map((c) => c.querySelector('[data-part="label"]')?.textContent ?? c.textContent));
      expect(rows.slice(1)).toEqual([['3', 'Employee registration', 'Employee registration E-ACC-1 is not known from any census import; send the employee\'s census record first']]);
      await userEvent.keyboard('{Escape}');
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      await userEvent.click(screen.getByRole('button', { name: 'census-all-taken.csv' }));
      expect(await screen.findByText('The service processed the file and took all 2 rows.')).toBeTruthy();
    });

    it('shows a result that comes after the file was listed, as it comes', async () => {
      const job = makeJob({ name: 'receipts-april.csv', fileType: '2' });
      const bridge = createMemoryBridge({ jobs: [job] });
      renderScreen(<HistoryScreen />, bridge);
      await screen.findByText('1 file');
      await userEvent.click(screen.getByRole('button', { name: 'receipts-april.csv' }));
      const dialog = await screen.findByRole('dialog', { name: 'receipts-april.csv' });
      await within(dialog).findByText(/that service holds this exact file|The service holds this exact file/);
      expect(within(dialog).queryByText(/The service processed the file/)).toBeNull();

      // The core keeps the result and says so (a `job` event of the filed file).
      const kept = { ...job, importResult: processed(0, 1), importErrors: [{ line: 2, field: 'employeeRegistration', message: unknown }] };
      bridge.state.jobs = [kept];
      const { warnings: _w, archivedFileThere: _a, importErrors: _e, ...view } = kept;
      bridge.emit('job', view);
      expect(await within(dialog).findByText(/refused its one row: nothing in it was taken/)).toBeTruthy();
      await waitFor(() => expect(screen.getByRole('button', { name: 'receipts-april.csv' }).closest('[role="row"]')!.lastElementChild!.textContent).toBe('1 of 1 row refused'), { timeout: 5000 });
    });
  });
});
