/** The access token: one at a time, shared by concurrent callers, renewed a minute before it expires. */

/** Renew this long before expiry, so a token never runs out in the middle of a call. */
export const TOKEN_RENEW_MARGIN_MS = 60_000;

export type FetchedToken = { accessToken: string; expiresInSeconds: number };

export type TokenCache = {
  get(): Promise<string>;
  /** Forgets `token` if it is still the cached one (a 401 said it is no good). */
  invalidate(token: string): void;
};

export function createTokenCache(fetchToken: () => Promise<FetchedToken>, now: () => number = Date.now): TokenCache {
  let cached: { token: string; renewAt: number } | undefined;
  let inFlight: Promise<string> | undefined;

  const fetchShared = (): Promise<string> => {
    inFlight ??= (async () => {
      // Expiry counts from before the request went out, so network time only makes us renew earlier.
      const requestedAt = now();
      try {
        const fetched = await fetchToken();
        cached = { token: fetched.accessToken, renewAt: requestedAt + fetched.expiresInSeconds * 1000 - TOKEN_RENEW_MARGIN_MS };
        return fetched.accessToken;
      } finally {
        inFlight = undefined;
      }
    })();
    return inFlight;
  };

  return {
    get() {
      if (cached && now() < cached.renewAt) return Promise.resolve(cached.token);
      return fetchShared();
    },
    invalidate(token) {
      if (cached?.token === token) cached = undefined;
    },
  };
}
