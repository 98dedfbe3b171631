/** Small helpers of the benchmarks: timing, medians, a results table, generated census data. */
import { execFile } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { promisify } from 'node:util';

export const exec = promisify(execFile);

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};

export async function timed<T>(fn: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const start = process.hrtime.bigint();
  const value = await fn();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, value };
}

export type Figure = { name: string; ours: string; baseline: string; ratio: number; target: string; pass: boolean };

export function printFigures(title: string, figures: Figure[]): void {
  process.stdout.write(`\n${title}\n`);
  process.stdout.write('| figure | ours | baseline | ratio | target | |\n|---|---|---|---|---|---|\n');
  for (const f of figures) {
    process.stdout.write(`| ${f.name} | ${f.ours} | ${f.baseline} | ${f.ratio.toFixed(2)} | ${f.target} | ${f.pass ? 'ok' : 'MISSED'} |\n`);
  }
}

export const CENSUS_HEADER =
  'lastName,firstName,employeeRegistration,hireDate,employeeStatus,eligibleForBenefits,payCycle,periodsPerYear,grossAnnualSalary,salaryPerPeriod,standardHours,hourlyRate,timeType,payrollGroup,payrollArea,personnelSubArea';

export const censusRow = (i: number) =>
  `Lastname${i},Firstname${i},E${i},2020-0${(i % 9) + 1}-1${i % 10},ACTIVE,true,BIWEEKLY,26,${52000 + (i % 1000)}.50,2000.02,40,25.25,FULL_TIME,G${i % 7},Area${i % 5},Sub${i % 3}`;

export const censusRecord = (i: number) => ({
  lastName: `Lastname${i}`, firstName: `Firstname${i}`, employeeRegistration: `E${i}`, hireDate: '2020-01-15',
  employeeStatus: 'ACTIVE', eligibleForBenefits: true, payCycle: 'BIWEEKLY', periodsPerYear: 26,
  grossAnnualSalary: 52000.5, salaryPerPeriod: 2000.02, standardHours: 40, hourlyRate: 25.25, timeType: 'FULL_TIME',
  payrollGroup: 'G1', payrollArea: 'North', personnelSubArea: 'Plant 1',
});

/** Writes a census CSV of at least `bytes` bytes; returns its row count. */
export async function writeCensusCsv(path: string, bytes: number, firstRow = 0): Promise<number> {
  const out = createWriteStream(path);
  out.write(`${CENSUS_HEADER}\n`);
  let written = CENSUS_HEADER.length + 1;
  let i = firstRow;
  while (written < bytes) {
    let chunk = '';
    for (let k = 0; k < 1000 && written + chunk.length < bytes; k++) chunk += `${censusRow(i++)}\n`;
    written += chunk.length;
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return i - firstRow;
}

/** Peak RSS over the life of `fn`, sampled every 20 ms. */
export async function peakRss<T>(fn: () => Promise<T>): Promise<{ peak: number; value: T }> {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20);
  try {
    const value = await fn();
    return { peak: Math.max(peak, process.memoryUsage.rss()), value };
  } finally {
    clearInterval(timer);
  }
}

export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
