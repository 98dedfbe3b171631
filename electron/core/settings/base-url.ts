/** The base URL a command or the app talks to: an explicit override, else the profile's setting. */
import {
  baseUrlOf,
  baseUrlSchema,
  type ProfileName,
  type Settings,
} from '../../../shared/settings.schema';
import { MissingBaseUrlError, SettingsValidationError, formatIssues } from './settings-errors';

/** Returns the base URL to use, or throws MissingBaseUrlError / SettingsValidationError (for a bad override). */
export function requireBaseUrl(settings: Settings, profile: ProfileName, override?: string, settingsPath?: string): string {
  if (override !== undefined) {
    const result = baseUrlSchema.safeParse(override);
    if (!result.success) {
      throw new SettingsValidationError(formatIssues(result.error.issues).map((line) => `--base-url${line.slice(line.indexOf(':'))}`));
    }
    return result.data;
  }
  const url = baseUrlOf(settings, profile);
  if (url === undefined) throw new MissingBaseUrlError(profile, settingsPath);
  return url;
}
