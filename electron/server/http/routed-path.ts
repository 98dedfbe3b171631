/** The request path as the router reads it, for the checks that name routes before or beside the router. */

/** A path percent-decoded as routedPath decodes it; undefined when it holds a malformed percent-encoding. */
export function percentDecoded(path: string): string | undefined {
  try {
    return decodeURIComponent(path);
  } catch {
    return undefined;
  }
}

/** The path as the router reads it (percent-decoded), so `/oauth/v1/%61ccess-token` is the token endpoint. */
export function routedPath(url: string): string {
  const path = url.split('?', 1)[0] ?? '';
  return percentDecoded(path) ?? path;
}
