// @vitest-environment happy-dom
import '../test-kit/setup-dom';
import { Button, MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { theme } from '../shell/theme';

const renderWithTheme = (ui: ReactElement) => render(<MantineProvider theme={theme}>{ui}</MantineProvider>);
/** What a button says to assistive technology, and whether it can hold the focus. */
const stateOf = (button: HTMLButtonElement) => ({
  disabled: button.disabled, busy: button.getAttribute('aria-busy'), ariaDisabled: button.getAttribute('aria-disabled'),
  loading: button.hasAttribute('data-loading'), type: button.type,
});

describe('the app\'s Button while busy (loading)', () => {
  it('stays an enabled button with the focus, says it is busy, shows the loader and ignores a press', async () => {
    const onClick = vi.fn();
    const { rerender } = renderWithTheme(<Button loading onClick={onClick}>Show in folder</Button>);
    const button = screen.getByRole<HTMLButtonElement>('button', { name: 'Show in folder' });
    button.focus();
    expect(stateOf(button)).toEqual({ disabled: false, busy: 'true', ariaDisabled: 'true', loading: true, type: 'button' });
    expect(button.querySelector('.mantine-Button-loader')).not.toBeNull();
    await userEvent.click(button);
    expect(onClick).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(button);

    rerender(<MantineProvider theme={theme}><Button loading={false} onClick={onClick}>Show in folder</Button></MantineProvider>);
    expect(screen.getByRole('button', { name: 'Show in folder' })).toBe(button);
    expect(stateOf(button)).toEqual({ disabled: false, busy: null, ariaDisabled: null, loading: false, type: 'button' });
    await userEvent.click(button);
    expect(onClick).toHaveBeenCalledTimes(1);
  });

  it('does not submit its form again while busy, by a press or by Enter in a field', async () => {
    const onSubmit = vi.fn((event: { preventDefault: () => void }) => event.preventDefault());
    renderWithTheme(
      <form onSubmit={onSubmit} aria-label="Files">
        <input aria-label="Stability" />
        <Button type="submit" loading>Save</Button>
      </form>,
    );
    const button = screen.getByRole<HTMLButtonElement>('button', { name: 'Save' });
    expect(stateOf(button)).toMatchObject({ disabled: false, busy: 'true', type: 'submit' });
    await userEvent.click(button);
    await userEvent.type(screen.getByRole('textbox', { name: 'Stability' }), '2{Enter}');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('tells busy from disabled: a Button disabled for itself stays disabled, and one drawn as a link stays a link', () => {
    renderWithTheme(
      <>
        <Button loading>Send again now</Button>
        <Button disabled>Next</Button>
        <Button component="a" href="#/settings">Open Settings</Button>
      </>,
    );
    expect(stateOf(screen.getByRole<HTMLButtonElement>('button', { name: 'Send again now' })))
      .toEqual({ disabled: false, busy: 'true', ariaDisabled: 'true', loading: true, type: 'button' });
    expect(stateOf(screen.getByRole<HTMLButtonElement>('button', { name: 'Next' })))
      .toEqual({ disabled: true, busy: null, ariaDisabled: null, loading: false, type: 'button' });
    expect(screen.getByRole('link', { name: 'Open Settings' }).getAttribute('href')).toBe('#/settings');
  });
});
