/**
 * What the Send records screen keeps while the app runs, so that a clerk who goes to Queue or History and comes back
 * finds every panel as they left it: the forms (values, problems shown, whether a send was tried), the last outcome,
 * the open tab, the paste box and the JSON text. The app unmounts a screen when another is opened
 * (`renderer/shell/use-screen.ts`), so none of this can live in the components' state.
 *
 * Memory only: payroll data typed here is never written to disk (no localStorage, no file). A draft goes when its
 * batch is sent successfully or the clerk presses Start over, and all of it when the app closes; in browser mode a
 * reload or a closed tab asks first while a form holds rows not sent (`unsent-rows.ts`). There is one memory
 * per TanStack Query client, which is one per app window; each component test renders with a client of its own, so
 * tests share nothing.
 */
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';

/** A value kept outside React that components can watch. */
export class Kept<T> {
  private listeners = new Set<() => void>();
  constructor(private value: T) {}
  get = (): T => this.value;
  set = (next: T): void => {
    this.value = next;
    for (const listener of this.listeners) listener();
  };
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
}

const memories = new WeakMap<QueryClient, Map<string, unknown>>();

/** The screen's memory under `key`, made by `create` the first time it is asked for. */
export function useScreenMemory<T>(key: string, create: () => T): T {
  const client = useQueryClient();
  let memory = memories.get(client);
  if (!memory) {
    memory = new Map();
    memories.set(client, memory);
  }
  if (!memory.has(key)) memory.set(key, create());
  return memory.get(key) as T;
}

/** The screen's memory under `key` as it is now, outside React: undefined until the screen made it. */
export function peekScreenMemory<T>(client: QueryClient, key: string): T | undefined {
  return memories.get(client)?.get(key) as T | undefined;
}

/** The kept value, re-rendering the component when it changes. */
export function useKept<T>(kept: Kept<T>): T {
  return useSyncExternalStore(kept.subscribe, kept.get);
}

/** Like useState, but the value is still there when the screen is opened again. */
export function useKeptState<T>(key: string, initial: T): [T, (next: T) => void] {
  const kept = useScreenMemory(key, () => new Kept(initial));
  return [useKept(kept), kept.set];
}
