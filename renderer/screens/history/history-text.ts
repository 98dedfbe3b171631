/** Every word of the History screen. */
import { formatNumber } from '../../components/format';

export const historyText = {
  title: 'History',
  description: 'Every file that has been dealt with and every batch of records sent, with how it ended.',
  show: 'Show',
  views: { files: 'Files', batches: 'Sent records' },
  filters: {
    search: 'Search by file name',
    searchPlaceholder: 'Part of the name, e.g. census',
    outcome: 'Outcome',
    type: 'Type',
    from: 'Found from',
    to: 'Found to',
    sentFrom: 'Sent from',
    sentTo: 'Sent to',
    all: 'All',
    clear: 'Clear filters',
  },
  outcomes: { uploaded: 'Uploaded', rejected: 'Refused', duplicate: 'Duplicate' },
  batchOutcomes: { sent: 'Sent', failed: 'Failed', sending: 'Sending', unknown: 'Outcome unknown' },
  types: { '1': 'Census', '2': 'Receipt' },
  kinds: { census: 'Census', receipt: 'Receipt' },
  columns: { name: 'File', outcome: 'Outcome', type: 'Type', found: 'Found', size: 'Size', problems: 'Problems' },
  /**
   * A file's row problems as counted in its row. They refused a refused file, so there they are errors; an uploaded
   * file went with them, the service refusing only those rows, so there they are warnings.
   */
  rowProblems: (n: number, refused: boolean) => (refused
    ? `${formatNumber(n)} ${n === 1 ? 'error' : 'errors'}`
    : `${formatNumber(n)} ${n === 1 ? 'warning' : 'warnings'}`),
  /**
   * What the service made of a file or batch after it arrived, beside its outcome: known only where the service says
   * it (the local test server). The outcome stays true (it arrived); this is a second fact.
   */
  processed: {
    recordsRefused: (refused: number, total: number) => `${formatNumber(refused)} of ${formatNumber(total)} ${total === 1 ? 'record' : 'records'} refused`,
    rowsRefused: (refused: number, total: number) => `${formatNumber(refused)} of ${formatNumber(total)} ${total === 1 ? 'row' : 'rows'} refused`,
    /** The service processed it and refused it as a whole (its reason is said with it). */
    wholeRefused: 'All refused',
    batchWholeRefused: (reason: string) => `The service refused the whole batch after it arrived: ${reason}`,
    noReason: 'it gave no reason',
    /** The service's reasons past the first ones kept. */
    more: (n: number) => `… and ${formatNumber(n)} more`,
  },
  batchColumns: {
    batch: 'Batch', outcome: 'Outcome', records: 'Records', sent: 'Sent', service: 'Service', importId: 'Import id', error: 'Problem',
  },
  tableLabel: 'Finished files',
  batchTableLabel: 'Batches of records sent',
  count: (n: number) => (n === 1 ? '1 file' : `${formatNumber(n)} files`),
  batchCount: (n: number) => (n === 1 ? '1 batch' : `${formatNumber(n)} batches`),
  batchName: (kind: string, id: number) => `${kind} batch ${id}`,
  loadingRow: 'Loading…',
  unknownType: '—',
  /** The Type filter's choice for files refused before their type was read (shown as "—"). */
  unknownTypeFilter: 'Not known (—)',
  showMore: 'Show more',
  empty: {
    title: 'No finished files yet',
    body: 'When a file from the watched folder has been uploaded, refused or found to be a duplicate, it is listed here. Files on their way are on the Queue screen.',
  },
  emptyFiltered: {
    title: 'No file matches',
    body: 'No finished file matches these filters. Change the search or clear the filters.',
  },
  emptyBatches: {
    title: 'No records sent yet',
    body: 'Batches of records you send from the Send records screen (new hires, terminations, receipts) are listed here.',
  },
  emptyBatchesFiltered: { title: 'No batch matches', body: 'No batch matches these filters. Clear the filters to see them all.' },
  detail: {
    close: 'Close',
    loading: 'Loading the details…',
    outcome: 'Outcome',
    path: 'Found as',
    filedAt: 'Filed in',
    /** Filed there once; it has left since (put back in the queue, or moved by hand). */
    wasFiledAt: 'Was filed in',
    backInQueueAs: 'Put back in the queue as',
    size: 'Size',
    found: 'Found',
    finished: 'Finished',
    importId: 'Import id',
    referenceDate: 'Reference date',
    type: 'Type',
    reason: 'Why it was refused',
    rowProblems: 'Rows with problems',
    rowWarnings: 'Rows with warnings',
    /** The service and client the file was queued for (and only ever sent to), as serviceName words it. */
    service: 'Service',
    uploadedHelp: 'The service holds this exact file.',
    uploadedTo: (service: string) => `Uploaded to ${service}: that service holds this exact file.`,
    uploadedWithWarnings: (n: number) => `Uploaded, but ${n === 1 ? '1 row has a problem' : `${n} rows have problems`} the service may refuse. Check them in your payroll system.`,
    duplicateHelp: 'The service already had a file with exactly the same content, so it was not sent again. It was moved to the duplicates folder.',
    duplicateNotFiledHelp: 'The service already had a file with exactly the same content, so it was not sent again.',
    refusedHelp: 'Fix the file (it is in the rejected folder), then put it back in the queue. To fix it, open it in your payroll system or a spreadsheet and correct the lines listed.',
    /** After refusedHelp: where a file put back goes, whichever environment is active now. */
    refusedGoesBackTo: (service: string) => `Put back, it is queued for ${service} again, as it was before.`,
    requeue: 'Put back in the queue',
    requeued: 'The file is back in the queue. Follow it on the Queue screen.',
    notThere: 'The file is no longer in the folder it was filed in: it was put back in the queue already, or moved by hand. Look for it in History under its name.',
    /** What the service made of an uploaded file (the local test server says it). */
    processedAll: (rows: number) => `The service processed the file and took ${rows === 1 ? 'its one row' : `all ${formatNumber(rows)} rows`}.`,
    processedSome: (refused: number, total: number) => (refused >= total
      ? `The service processed the file and refused ${total === 1 ? 'its one row' : `all ${formatNumber(total)} rows`}: nothing in it was taken. `
        + 'Correct the rows in your payroll system and export the file again.'
      // Sent again whole, the file would import the rows the service took a second time.
      : `The service processed the file: it took ${formatNumber(total - refused)} of its ${formatNumber(total)} rows and refused `
        + `${formatNumber(refused)}. Correct the refused ${refused === 1 ? 'row' : 'rows'} in your payroll system, then send only `
        + `${refused === 1 ? 'it' : 'them'} again (Send records, or a file of ${refused === 1 ? 'that row' : 'those rows'} alone): `
        + 'the whole file sent again would import the other rows a second time.'),
    refusedRows: 'Rows the service refused',
    wholeRefusedTitle: 'The service refused the whole file after it arrived',
    wholeRefusedBody: 'Nothing in the file was taken.',
    reveal: 'Show in folder',
    revealedBrowser: 'The file is at ',
  },
};
