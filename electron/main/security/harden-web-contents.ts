/**
 * Navigation and new windows refused for every web contents the app creates (checklist items 11-15): the window
 * stays on the app's own pages; a vetted https link opens in the OS browser instead.
 */
import type { Event, WebContents } from 'electron';
import { vetExternalUrl } from './external-url';

export type HardenOptions = {
  openExternal(url: string): Promise<void>;
  onRefused?(what: string, url: string): void;
};

type Guarded = Pick<WebContents, 'on' | 'setWindowOpenHandler'>;

export function hardenWebContents(contents: Guarded, options: HardenOptions): void {
  const openIfVetted = (url: string): void => {
    const vetted = vetExternalUrl(url);
    if (vetted) void options.openExternal(vetted).catch(() => undefined);
  };
  const refuse = (what: string) => (event: Event, url: string) => {
    event.preventDefault();
    options.onRefused?.(what, url);
  };

  contents.on('will-navigate', (event, url) => {
    refuse('navigation')(event, url);
    openIfVetted(url);
  });
  contents.on('will-frame-navigate', (event) => refuse('frame navigation')(event, event.url));
  contents.on('will-redirect', (event, url) => refuse('redirect')(event, url));
  contents.on('will-attach-webview', (event) => refuse('webview')(event, ''));
  contents.setWindowOpenHandler(({ url }) => {
    options.onRefused?.('new window', url);
    openIfVetted(url);
    return { action: 'deny' };
  });
}
