/**
 * The fault rules of one running server, kept in memory per client: a client's rules affect only requests made
 * with its own credentials (its token, its Basic id, its upload addresses). A restart always starts without faults.
 * Setting or clearing a client's rules ends the holds its processingDelayMs rules put on its imports (faults.ts):
 * they belong to the rules that were in force, so a client that clears its rules sees its imports processed.
 */
import type { ServerContext } from '../context';
import type { FaultRule } from './local-schemas';

export type FaultStore = {
  list(clientId: string): FaultRule[];
  replace(clientId: string, rules: FaultRule[]): void;
  /** Clears one client's rules, or every client's when none is named. */
  clear(clientId?: string): void;
  /** Whether no client has any rule (the hook then does nothing at all). */
  empty(): boolean;
  /** The client's rule with the longest prefix matching `path`; never one for /local/v1. */
  match(clientId: string, path: string): FaultRule | undefined;
};

const stores = new WeakMap<ServerContext, FaultStore>();

export const isLocalPath = (path: string) => path === '/local/v1' || path.startsWith('/local/v1/');

function createFaultStore(changed: (clientId?: string) => void): FaultStore {
  // Per client: the rules as given, and longest prefix first so the most specific rule wins.
  const rules = new Map<string, { given: FaultRule[]; byLength: FaultRule[] }>();
  return {
    list: (clientId) => (rules.get(clientId)?.given ?? []).map((r) => ({ ...r })),
    replace(clientId, next) {
      if (next.length === 0) rules.delete(clientId);
      else {
        const given = next.map((r) => ({ ...r }));
        rules.set(clientId, { given, byLength: [...given].sort((a, b) => b.pathPrefix.length - a.pathPrefix.length) });
      }
      changed(clientId);
    },
    clear(clientId) {
      if (clientId === undefined) rules.clear();
      else rules.delete(clientId);
      changed(clientId);
    },
    empty: () => rules.size === 0,
    match(clientId, path) {
      const own = rules.get(clientId);
      if (!own || isLocalPath(path)) return undefined;
      return own.byLength.find((r) => path.startsWith(r.pathPrefix));
    },
  };
}

/** The fault store of a server (one per context). */
export function faultStore(ctx: ServerContext): FaultStore {
  let store = stores.get(ctx);
  if (!store) {
    store = createFaultStore((clientId) => ctx.processor.release(clientId));
    stores.set(ctx, store);
  }
  return store;
}
