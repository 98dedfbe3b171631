// Preloaded into a server process (NODE_OPTIONS=--import) to run it as on a machine whose clock is off by
// CLOCK_SKEW_MS (negative: behind). Node's HTTP layer writes the `Date` header from its own untouched copy of Date,
// so the header is shifted here too, as a real machine's would be; CLOCK_SKEW_DATE_HEADER=none leaves it out
// instead, as a service (or a proxy in front of it) that sends none.
import http from 'node:http';
import process from 'node:process';

const skew = Number(process.env.CLOCK_SKEW_MS ?? 0);
const dateHeader = process.env.CLOCK_SKEW_DATE_HEADER ?? 'shifted';
const RealDate = Date;
const realNow = RealDate.now.bind(RealDate);

class SkewedDate extends RealDate {
  constructor(...args) {
    if (args.length === 0) super(realNow() + skew);
    else super(...args);
  }

  static now() {
    return realNow() + skew;
  }
}
globalThis.Date = SkewedDate;

const writeHead = http.ServerResponse.prototype.writeHead;
http.ServerResponse.prototype.writeHead = function writeHeadOnSkewedClock(...args) {
  if (dateHeader === 'none') this.sendDate = false;
  else if (!this.headersSent && !this.hasHeader('date')) this.setHeader('date', new SkewedDate().toUTCString());
  return writeHead.apply(this, args);
};
