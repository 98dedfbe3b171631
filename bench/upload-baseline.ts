/** The upload benchmark's baselines: what a person would do by hand with md5sum and curl. */
import { writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { exec, timed } from './bench-kit';
import { handshake } from './upload-server';

const md5sum = async (file: string) => (await exec('md5sum', [file])).stdout.slice(0, 32);

export const curlPut = (file: string, uploadUrl: string) =>
  exec('curl', ['-s', '-f', '-o', '/dev/null', '-T', file, '-H', 'Content-Type: text/csv', uploadUrl]);

/** Milliseconds of md5sum alone, for the MD5 figure. */
export async function md5sumMs(file: string): Promise<number> {
  return (await timed(() => md5sum(file))).ms;
}

/** md5sum, then the handshake POST (fetch, token already held), then `curl -T`: one file by hand. */
export async function manualUploadMs(file: string, url: string, token: string): Promise<number> {
  const { ms } = await timed(async () => {
    const md5 = await md5sum(file);
    const uploadUrl = await handshake(url, token, md5, basename(file));
    await curlPut(file, uploadUrl);
  });
  return ms;
}

/**
 * The loop a person would script: per file md5sum, a curl POST of its metadata with a token fetched once, sed to
 * pick the upload address out of the answer, and `curl -T`. set -e: any failed call fails the benchmark.
 */
const LOOP = `set -euo pipefail
base="$1"; token="$2"; dir="$3"
for f in "$dir"/*.csv; do
  sum=$(md5sum "$f"); sum=\${sum%% *}
  name=\${f##*/}
  answer=$(curl -s -f -X POST "$base/law/api/v1/payroll-submissions" \\
    -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \\
    --data "[{\\"fileType\\":\\"1\\",\\"referenceDate\\":\\"2026-03-31T00:00:00Z\\",\\"checksum\\":\\"$sum\\",\\"fileName\\":\\"$name\\"}]")
  upload=$(printf '%s' "$answer" | sed -n 's/.*"uploadUrl":"\\([^"]*\\)".*/\\1/p')
  [ -n "$upload" ] || { echo "no uploadUrl for $name: $answer" >&2; exit 1; }
  curl -s -f -o /dev/null -T "$f" -H 'Content-Type: text/csv' "$upload"
done
`;

/** Milliseconds of the shell loop over every *.csv in `dir`. */
export async function shellLoopMs(workDir: string, dir: string, url: string, token: string): Promise<number> {
  const script = join(workDir, 'upload-loop.sh');
  await writeFile(script, LOOP);
  const { ms } = await timed(() => exec('bash', [script, url, token, dir], { maxBuffer: 16 * 1024 * 1024 }));
  return ms;
}
