/** The fault rules of one running server, kept in memory: a restart always starts without faults. */
import type { ServerContext } from '../context';
import type { FaultRule } from './local-schemas';

export type FaultStore = {
  list(): FaultRule[];
  replace(rules: FaultRule[]): void;
  clear(): void;
  /** The rule with the longest prefix matching `path`; never one for /local/v1. */
  match(path: string): FaultRule | undefined;
};

const stores = new WeakMap<ServerContext, FaultStore>();

export const isLocalPath = (path: string) => path === '/local/v1' || path.startsWith('/local/v1/');

function createFaultStore(): FaultStore {
  let rules: FaultRule[] = [];
  // Longest prefix first, so the most specific rule wins.
  let byLength: FaultRule[] = [];
  return {
    list: () => rules.map((r) => ({ ...r })),
    replace(next) {
      rules = next.map((r) => ({ ...r }));
      byLength = [...rules].sort((a, b) => b.pathPrefix.length - a.pathPrefix.length);
    },
    clear() {
      rules = [];
      byLength = [];
    },
    match(path) {
      if (byLength.length === 0 || isLocalPath(path)) return undefined;
      return byLength.find((r) => path.startsWith(r.pathPrefix));
    },
  };
}

/** The fault store of a server (one per context). */
export function faultStore(ctx: ServerContext): FaultStore {
  let store = stores.get(ctx);
  if (!store) {
    store = createFaultStore();
    stores.set(ctx, store);
  }
  return store;
}
