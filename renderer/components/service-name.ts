/** How the screens name a service: one wording for the Queue's waiting files and History's files and batches. */
import type { ServiceView } from '../../shared/bridge';
import { PROFILE_TITLES } from '../../shared/settings.schema';
import { componentsText } from './components-text';

const t = componentsText.service;

/**
 * "Production (https://payroll.example.com) as client acme", or the built-in test server (its address changes from
 * run to run, and it has only the app's own client): for the middle of a sentence.
 */
export function serviceName(service: ServiceView): string {
  return service.builtIn ? t.builtIn : t.named(PROFILE_TITLES[service.profile], service.address ?? '', service.clientId);
}

/** The same at the start of a sentence or on its own (a table cell). */
export function serviceNameStart(service: ServiceView): string {
  const name = serviceName(service);
  return name.charAt(0).toUpperCase() + name.slice(1);
}
