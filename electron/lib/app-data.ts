/** The user's application-data folder for this app, per platform. */
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/**
 * A folder named by an environment variable, when it names one: empty or relative is no folder (the XDG base
 * directory specification says to ignore such a value; taken as it is, it would put payroll data in the current folder).
 */
const folderOf = (value: string | undefined): string | undefined => (value && isAbsolute(value) ? value : undefined);

export function appDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.PAYROLL_DATA_DIR) return env.PAYROLL_DATA_DIR;
  if (platform === 'win32') return join(folderOf(env.APPDATA) ?? join(homedir(), 'AppData', 'Roaming'), 'payroll-uploader');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'payroll-uploader');
  return join(folderOf(env.XDG_DATA_HOME) ?? join(homedir(), '.local', 'share'), 'payroll-uploader');
}
