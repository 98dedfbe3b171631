/** The user's application-data folder for this app, per platform. */
import { homedir } from 'node:os';
import { join } from 'node:path';

export function appDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.PAYROLL_DATA_DIR) return env.PAYROLL_DATA_DIR;
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'payroll-uploader');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'payroll-uploader');
  return join(env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'payroll-uploader');
}
