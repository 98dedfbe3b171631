/**
 * The one IPC entry of the renderer: `payroll:call`. Every message has its sender frame checked and its argument
 * validated with the contract's schema before it reaches a handler; desktop-only methods are answered here, the
 * rest by the engine process. Errors cross as envelopes in the reply (Electron keeps only the message of a thrown
 * error).
 */
import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import {
  BRIDGE_IPC, bridgeMethods, invalidArgument, isBridgeMethod, type BridgeMethodName, type BridgeReply,
} from '../../../shared/bridge';
import type { Logger } from '../../lib/logger';
import { isTrustedSender } from './sender-check';

type AnyReply = BridgeReply<BridgeMethodName>;

/** A method main answers itself; it gets the request already validated. */
export type DesktopHandler = (request: unknown, sender: WebContents) => Promise<AnyReply>;
export type DesktopHandlers = Partial<Record<BridgeMethodName, DesktopHandler>>;

export type BridgeIpcOptions = {
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>;
  engine: { call(method: BridgeMethodName, request: unknown): Promise<AnyReply> };
  desktop: DesktopHandlers;
  logger: Logger;
};

/** Thrown (not answered) to a frame that is not the app's own: it learns nothing. */
export class UntrustedSenderError extends Error {
  override readonly name = 'UntrustedSenderError';
}

export async function handleBridgeCall(options: BridgeIpcOptions, event: IpcMainInvokeEvent, method: unknown, request: unknown): Promise<AnyReply> {
  if (!isTrustedSender(event.senderFrame)) {
    options.logger.warn(`refused a bridge call from ${event.senderFrame?.url ?? 'a frame that is gone'}`);
    throw new UntrustedSenderError('refused');
  }
  if (typeof method !== 'string' || !isBridgeMethod(method)) {
    return { ok: false, error: { name: 'BridgeError', code: 'unknown_method', message: `There is no bridge method ${JSON.stringify(String(method)).slice(0, 80)}.` } };
  }
  const parsed = bridgeMethods[method].request.safeParse(request ?? {});
  if (!parsed.success) return { ok: false, error: invalidArgument(parsed.error, method).toEnvelope() };
  const desktop = options.desktop[method];
  try {
    // The engine validates again with the same schema; it gets the request as sent, not zod's output.
    return desktop ? await desktop(request ?? {}, event.sender) : await options.engine.call(method, request ?? {});
  } catch (error) {
    options.logger.error(`${method} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return { ok: false, error: { name: 'BridgeError', code: 'internal', message: `${method} failed; the details are in the log.` } };
  }
}

/** Registers the handler; returns the function that removes it. */
export function registerBridgeIpc(options: BridgeIpcOptions): () => void {
  options.ipcMain.handle(BRIDGE_IPC.call, (event, method: unknown, request: unknown) => handleBridgeCall(options, event, method, request));
  return () => options.ipcMain.removeHandler(BRIDGE_IPC.call);
}

type EventTarget = Pick<WebContents, 'send' | 'getURL' | 'isDestroyed'>;

/** Sends one engine event to the windows showing the app's own page. */
export function relayEvent(targets: readonly EventTarget[], event: string, payload: unknown, isOwnPage: (url: string) => boolean): void {
  for (const target of targets) {
    if (!target.isDestroyed() && isOwnPage(target.getURL())) target.send(BRIDGE_IPC.event, { event, payload });
  }
}
