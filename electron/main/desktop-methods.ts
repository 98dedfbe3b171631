/** The bridge methods only the desktop can answer: the native folder dialog, and showing a file in its folder. */
import { existsSync } from 'node:fs';
import type { BrowserWindow, Dialog, Shell, WebContents } from 'electron';
import type { BridgeMethodName, BridgeReply, BridgeResponse } from '../../shared/bridge';
import type { DesktopHandlers } from './ipc/bridge-ipc';

export type DesktopMethodDeps = {
  dialog: Pick<Dialog, 'showOpenDialog'>;
  shell: Pick<Shell, 'showItemInFolder'>;
  engine: { call(method: BridgeMethodName, request: unknown): Promise<BridgeReply<BridgeMethodName>> };
  windowOf(sender: WebContents): BrowserWindow | null;
  fileExists?: (path: string) => boolean;
};

export function desktopMethods(deps: DesktopMethodDeps): DesktopHandlers {
  const exists = deps.fileExists ?? existsSync;
  return {
    async 'watch.browse'(_request, sender) {
      const options = {
        title: 'Choose the folder your payroll system exports to',
        properties: ['openDirectory', 'createDirectory', 'dontAddToRecent'] as Array<'openDirectory' | 'createDirectory' | 'dontAddToRecent'>,
      };
      const window = deps.windowOf(sender);
      const answer = window ? await deps.dialog.showOpenDialog(window, options) : await deps.dialog.showOpenDialog(options);
      const result: BridgeResponse<'watch.browse'> = { folder: answer.canceled ? null : (answer.filePaths[0] ?? null) };
      return { ok: true, result };
    },
    async 'jobs.reveal'(request) {
      // The engine knows where the job's file is now (archived or still in place); main only shows it.
      const reply = await deps.engine.call('jobs.reveal', request);
      if (!reply.ok) return reply;
      const { path } = reply.result as BridgeResponse<'jobs.reveal'>;
      const revealed = exists(path);
      if (revealed) deps.shell.showItemInFolder(path);
      const result: BridgeResponse<'jobs.reveal'> = { path, revealed };
      return { ok: true, result };
    },
  };
}
