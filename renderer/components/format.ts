/** How numbers, sizes and times read on screen. */
const KB = 1024;

export function formatBytes(bytes: number): string {
  if (bytes < KB) return `${bytes} B`;
  if (bytes < KB * KB) return `${(bytes / KB).toFixed(bytes < 10 * KB ? 1 : 0)} KB`;
  if (bytes < KB * KB * KB) return `${(bytes / KB / KB).toFixed(1)} MB`;
  return `${(bytes / KB / KB / KB).toFixed(2)} GB`;
}

export const formatSpeed = (bytesPerSecond: number) => `${formatBytes(Math.round(bytesPerSecond))}/s`;

/** "12 s", "3 min", "1 h 5 min": how long something still takes, rounded up as a clerk would say it. */
export function formatDuration(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  if (s < 60) return `${s} s`;
  const minutes = Math.ceil(s / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const time = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });

export const formatDateTime = (ms: number) => dateTime.format(ms);
export const formatTime = (ms: number) => time.format(ms);

// One formatter for the app: toLocaleString() builds a new one on every call, which showed in profiles of a busy Queue.
const integer = new Intl.NumberFormat();
export const formatNumber = (n: number) => integer.format(n);
