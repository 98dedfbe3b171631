/**
 * The renderer's Content-Security-Policy: scripts only from the app itself (no inline script, no eval), nothing
 * fetched from the network (the renderer talks to the engine over IPC only), no plugins, frames or forms.
 * Inline styles stay allowed because React's style attributes and Vite's CSS injection in development use them;
 * they cannot run code.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-src 'none'",
  "frame-ancestors 'none'",
  "worker-src 'none'",
].join('; ');

/** Headers every renderer response carries. */
export function securityHeaders(): Record<string, string> {
  return {
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Referrer-Policy': 'no-referrer',
  };
}
