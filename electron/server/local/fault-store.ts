/**
 * The fault rules of one running server, kept in memory per client: a client's rules affect only requests made
 * with its own credentials (its token, its Basic id, its upload addresses). A restart always starts without faults.
 * Setting or clearing a client's rules ends the holds its processingDelayMs rules put on its imports (faults.ts), save
 * those of a rule still in force with the same path prefix and delay: a hold belongs to its rule, so a client that
 * removes the rule (or changes its delay) sees its imports processed, and one that adds or removes another rule does not.
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

/** What a processing hold belongs to: the path prefix and the delay of the rule that set it. */
export const delayingRuleKey = (rule: FaultRule): string => `${rule.processingDelayMs ?? 0} ${rule.pathPrefix}`;

export const isLocalPath = (path: string) => path === '/local/v1' || path.startsWith('/local/v1/');

/** `changed` is told whose rules changed (every client's: undefined) and the rules the client has now. */
function createFaultStore(changed: (clientId: string | undefined, now: FaultRule[]) => void): FaultStore {
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
      changed(clientId, next);
    },
    clear(clientId) {
      if (clientId === undefined) rules.clear();
      else rules.delete(clientId);
      changed(clientId, []);
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
    store = createFaultStore((clientId, now) => {
      ctx.processor.release(clientId, new Set(now.filter((r) => r.processingDelayMs).map(delayingRuleKey)));
    });
    stores.set(ctx, store);
  }
  return store;
}
