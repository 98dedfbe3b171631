/** Checklist item 17: an IPC message counts only when it comes from the top frame of the app's own page. */
import { isAppUrl } from '../security/app-protocol';

type FrameLike = { url: string; parent: unknown } | null | undefined;

export function isTrustedSender(frame: FrameLike): boolean {
  // senderFrame is null once the frame navigated away or was destroyed: nothing to trust then.
  if (!frame) return false;
  return frame.parent === null && isAppUrl(frame.url);
}
