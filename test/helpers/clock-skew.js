// Preloaded into a process (NODE_OPTIONS=--import) to run it as on a machine whose clock is off by CLOCK_SKEW_MS
// (negative: behind). With CLOCK_SKEW_FILE, the milliseconds are read from that file instead (looked at again every
// 50 ms), so a test can set the clock forward or back while the process runs, as NTP or a time-zone fix does. Only
// the wall clock moves: the monotonic clock (performance.now) runs on, as a real machine's does. Node's HTTP layer
// writes the `Date` header from its own untouched copy of Date, so the header is shifted here too, as a real
// machine's would be; CLOCK_SKEW_DATE_HEADER=none leaves it out instead, as a service (or a proxy in front of it)
// that sends none.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import process from 'node:process';

const fixedSkew = Number(process.env.CLOCK_SKEW_MS ?? 0);
const skewFile = process.env.CLOCK_SKEW_FILE;
const dateHeader = process.env.CLOCK_SKEW_DATE_HEADER ?? 'shifted';
const RealDate = Date;
const realNow = RealDate.now.bind(RealDate);

let fileSkew = 0;
let readAt = -Infinity;
function skew() {
  if (!skewFile) return fixedSkew;
  const t = performance.now();
  if (t - readAt >= 50) {
    readAt = t;
    try {
      fileSkew = Number(readFileSync(skewFile, 'utf8').trim()) || 0;
    } catch {
      // No file yet: the clock is right.
    }
  }
  return fileSkew;
}

class SkewedDate extends RealDate {
  constructor(...args) {
    if (args.length === 0) super(realNow() + skew());
    else super(...args);
  }

  static now() {
    return realNow() + skew();
  }
}
globalThis.Date = SkewedDate;

const writeHead = http.ServerResponse.prototype.writeHead;
http.ServerResponse.prototype.writeHead = function writeHeadOnSkewedClock(...args) {
  if (dateHeader === 'none') this.sendDate = false;
  else if (!this.headersSent && !this.hasHeader('date')) this.setHeader('date', new SkewedDate().toUTCString());
  return writeHead.apply(this, args);
};
