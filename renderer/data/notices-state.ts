/**
 * The notices a window shows: the core's list (notices.list) kept current by its `notice` and `noticesGone` events,
 * plus the desktop shell's own notices (no number: the engine stopped), which only this window holds.
 *
 * The core numbers every change of its list one after the other (see noticeListSchema). Events that come before the
 * list's answer are kept and applied after it, those it already holds are skipped, and a missing number (events lost
 * in a long break) or another run of the engine (restarted) means the list must be asked for again.
 */
import type { Notice, NoticeList, NoticesGone } from '../../shared/bridge';

/** A notice as shown, with a key for React: the core's number in its run, or one of this window's own. */
export type NoticeItem = Notice & { key: string; at: number };

export type NoticesState = {
  /** The engine run the list came from; undefined until notices.list answered. */
  run?: string;
  /** The number of the last change of the core's list applied here. */
  version: number;
  /** Newest first. */
  items: NoticeItem[];
  /** How many older notices the core left out. */
  leftOut: number;
};

export type NoticeChange = { kind: 'notice'; notice: Notice } | { kind: 'gone'; gone: NoticesGone };

export const EMPTY_NOTICES: NoticesState = { version: 0, items: [], leftOut: 0 };
/** The shell's own notices kept at most (the core bounds its own). */
const OWN_KEPT = 20;

let ownKey = 0;
const keyed = (notice: Notice & { at: number }): NoticeItem =>
  ({ ...notice, key: notice.id !== undefined && notice.run !== undefined ? `${notice.run}:${notice.id}` : `own:${(ownKey += 1)}` });
const newestFirst = (a: NoticeItem, b: NoticeItem) => b.at - a.at;

/** The change's place in the core's numbering; undefined for a notice of the shell's own. */
function numberOf(change: NoticeChange): { run: string; version: number } | undefined {
  if (change.kind === 'gone') return change.gone;
  const { run, id } = change.notice;
  return run !== undefined && id !== undefined ? { run, version: id } : undefined;
}

/**
 * One event applied. `outOfStep`: it cannot be applied (a number is missing, another run speaks): ask for the list
 * again. Before the list has answered, the core's events change nothing (they are applied after it, see fromList).
 */
export function applyNoticeChange(state: NoticesState, change: NoticeChange): { state: NoticesState; outOfStep: boolean } {
  const number = numberOf(change);
  if (!number && change.kind === 'notice') {
    const own = keyed({ ...change.notice, at: Date.now() });
    const owns = state.items.filter((n) => n.id === undefined);
    const dropped = owns.length >= OWN_KEPT ? new Set(owns.slice(OWN_KEPT - 1).map((n) => n.key)) : undefined;
    return { state: { ...state, items: [own, ...state.items.filter((n) => !dropped?.has(n.key))] }, outOfStep: false };
  }
  if (!number || state.run === undefined || (state.run === number.run && number.version <= state.version)) return { state, outOfStep: false };
  if (state.run !== number.run || number.version !== state.version + 1) return { state, outOfStep: true };
  if (change.kind === 'notice') {
    return { state: { ...state, version: number.version, items: [keyed({ ...change.notice, at: change.notice.at ?? Date.now() }), ...state.items] }, outOfStep: false };
  }
  const gone = new Set(change.gone.ids);
  const items = state.items.filter((n) => n.run !== number.run || n.id === undefined || !gone.has(n.id));
  return { state: { ...state, version: number.version, items, leftOut: change.gone.leftOut }, outOfStep: false };
}

/**
 * The core's list as this window holds it: the list, the shell's own notices already shown, then the events after the
 * list's number that came before its answer (`since`, in the order they came).
 */
export function fromList(list: NoticeList, current: NoticesState | undefined, since: readonly NoticeChange[]): { state: NoticesState; outOfStep: boolean } {
  const own = current?.items.filter((n) => n.id === undefined) ?? [];
  let state: NoticesState = {
    run: list.run, version: list.version, leftOut: list.leftOut, items: [...list.items.map(keyed), ...own].sort(newestFirst),
  };
  for (const change of since) {
    const number = numberOf(change);
    if (!number || number.run !== list.run || number.version <= list.version) continue;
    const applied = applyNoticeChange(state, change);
    if (applied.outOfStep) return { state, outOfStep: true };
    state = applied.state;
  }
  return { state, outOfStep: false };
}
