/** Which addresses the app hands to the OS browser: plain https links to a named host, nothing else. */

const MAX_LENGTH = 2048;

/**
 * A name that resolves to this machine whatever DNS says: `localhost` and every name under it (`app.localhost`,
 * RFC 6761). The host comes lowercased and without its trailing dots, which resolvers ignore (`localhost.`).
 */
function isLocalhostName(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost');
}

/** The URL to open, or undefined when it is not a vetted https address (file:, smb:, javascript:, credentials, IPs...). */
export function vetExternalUrl(candidate: unknown): string | undefined {
  if (typeof candidate !== 'string' || candidate.length > MAX_LENGTH) return undefined;
  // Control characters and spaces have tricked URL handlers of some platforms into other programs.
  for (const char of candidate) {
    const code = char.codePointAt(0) ?? 0;
    if (code <= 0x20 || code === 0x7f) return undefined;
  }
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' || url.username !== '' || url.password !== '') return undefined;
  // The URL parser lowercases the host; a trailing dot names the same host (`intranet.` is still a bare word).
  const host = url.hostname.replace(/\.+$/, '');
  // A named host with a dot: no bare words, no IPv4 or IPv6 literals, no loopback name (links of the app name sites).
  if (!host.includes('.') || host.startsWith('[') || /^[\d.]+$/.test(host) || isLocalhostName(host)) return undefined;
  return url.href;
}
