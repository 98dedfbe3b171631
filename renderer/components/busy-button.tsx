/**
 * The element every Mantine Button of the app draws (the theme's default `component` for Button, theme.ts), so that a
 * button keeps the keyboard focus while it is busy.
 *
 * Mantine draws a Button with `loading` as `disabled`, and Chromium takes the focus off a focused button that becomes
 * disabled: it fell to the page (<body>), so the next Tab started from the top of the screen, or, behind an open drawer
 * or dialog, reached a control of the page the clerk could not see (Show in folder, Send again now, Save, Send N
 * people). Busy, this stays an enabled <button>: Mantine's loader and look (its `data-loading` styles) are kept, the
 * busy state is said to assistive technology (`aria-busy`, and `aria-disabled` since pressing it does nothing now), and
 * a press does nothing, not even a form's submit, as when it was disabled. A button disabled for another reason
 * (`disabled` without `loading`) is still a disabled button.
 */
import type { ComponentPropsWithRef, MouseEvent } from 'react';

/** What Mantine's Button hands its element: the button's own props, and its state as data attributes. */
type ElementProps = ComponentPropsWithRef<'button'> & { 'data-loading'?: boolean; 'data-disabled'?: boolean };

export function BusyAwareButton({ disabled, type, onClick, ...props }: ElementProps) {
  // Mantine sets `disabled` for `loading` too; `data-disabled` is set only when it is disabled for itself.
  const busy = props['data-loading'] === true && props['data-disabled'] !== true;
  const ignore = (event: MouseEvent<HTMLButtonElement>) => event.preventDefault();
  return (
    <button {...props} type={type ?? 'button'} disabled={busy ? undefined : disabled}
      aria-busy={busy || undefined} aria-disabled={busy || props['aria-disabled'] || undefined}
      onClick={busy ? ignore : onClick} />
  );
}
