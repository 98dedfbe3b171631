/** Which addresses the app hands to the OS browser: plain https links to a named host, nothing else. */

const MAX_LENGTH = 2048;

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
  const host = url.hostname;
  // A named host with a dot: no bare words, no IPv4 or IPv6 literals (links of the app name sites).
  if (!host.includes('.') || host.startsWith('[') || /^[\d.]+$/.test(host)) return undefined;
  return url.href;
}
