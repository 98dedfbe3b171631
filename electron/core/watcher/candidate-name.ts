/**
 * True when a file name (not a path) is an upload candidate: a `.csv` file (any case) that is not
 * hidden (`.x`), an Office lock file (`~$x`), or a temporary / partial file (`*.tmp`, `*.part`).
 */
export function isCandidateName(name: string): boolean {
  if (name.includes('/') || name.includes('\\')) return false;
  if (name.startsWith('.') || name.startsWith('~$')) return false;
  const lower = name.toLowerCase();
  // `*.tmp` / `*.part` can never end in `.csv`; the checks stay so the rule reads like docs/service-decisions.md §9.
  if (lower.endsWith('.tmp') || lower.endsWith('.part')) return false;
  return lower.endsWith('.csv') && lower.length > '.csv'.length;
}
