/** Which hosts are this machine (docs/service-decisions.md §7). Pure: no Node APIs. */

/**
 * True when `host` names this machine's loopback: 127.0.0.0/8, `localhost` (any case), `::1`, or an IPv4-mapped
 * `::ffff:127.x.y.z`. Takes a URL's `hostname` (`[::1]`) or a bare host (`::1`, `127.1`); a host with a port, path,
 * user or anything else after it is refused. Not `localhost.`: a name with a trailing dot is fully qualified, so the
 * resolver skips the hosts file and asks DNS, which may answer with any address (see loopbackSpellingHint).
 */
export function isLoopbackHost(host: string): boolean {
  if (host === '' || /[/\\?#@\s]/.test(host)) return false;
  const bracketed = host.startsWith('[');
  if (bracketed && !/^\[[^\]]*\]$/.test(host)) return false;
  let hostname: string;
  try {
    // The WHATWG URL parser writes every spelling of an address one way: `127.1`, `0x7f.1` and `2130706433` become
    // `127.0.0.1`, `[0:0::1]` becomes `[::1]`, `[::ffff:127.0.0.1]` becomes `[::ffff:7f00:1]`, `LOCALHOST` `localhost`.
    hostname = new URL(`http://${!bracketed && host.includes(':') ? `[${host}]` : host}/`).hostname;
  } catch {
    return false;
  }
  return (
    hostname === 'localhost' ||
    hostname === '[::1]' ||
    /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(hostname) ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  );
}

/**
 * For a message that refuses `host` as not this machine: how to write this machine instead, when `host` is
 * `localhost` with trailing dots (any case), which looks like this machine but is looked up through DNS. Otherwise
 * undefined.
 */
export function loopbackSpellingHint(host: string): string | undefined {
  if (!/^localhost\.+$/i.test(host)) return undefined;
  return `"${host}" with a trailing dot is looked up through DNS, which may lead off this machine: write localhost or 127.0.0.1`;
}
