// @vitest-environment happy-dom
import '../../test-kit/setup-dom';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { App } from '../../app';
import { createQueryClient } from '../../data/query-client';
import { createMemoryBridge } from '../../test-kit/memory-bridge';

/** An element's words as a screen reader reads them: its text, less what is hidden from readers (aria-hidden). */
function readText(element: Element): string {
  const parts: string[] = [];
  const walk = (node: Node) => {
    if (node instanceof Element && node.getAttribute('aria-hidden') === 'true') return;
    if (node.nodeType === Node.TEXT_NODE) parts.push(node.textContent ?? '');
    node.childNodes.forEach(walk);
  };
  walk(element);
  return parts.join('').replace(/\s+/g, ' ').trim();
}

/** The set-up's steps as a reader has them: each one's words, and which is the current step. */
function steps(): { text: string; current: boolean }[] {
  const list = screen.getByRole('list', { name: 'Set-up steps' });
  return within(list).getAllByRole('listitem').map((item) => ({ text: readText(item), current: item.getAttribute('aria-current') === 'step' }));
}

describe('First run, for the keyboard and a screen reader', () => {
  beforeEach(() => { window.location.hash = ''; });

  it('lists the steps with the current one marked, and takes the focus to the heading of the step that opens', async () => {
    render(<App bridge={createMemoryBridge()} queryClient={createQueryClient()} />);
    await screen.findByRole('heading', { name: 'Choose the environment' });
    expect(steps()).toEqual([
      { text: 'Step 1 of 3: Environment. Where files go', current: true },
      { text: 'Step 2 of 3: Credentials. Connect to the service', current: false },
      { text: 'Step 3 of 3: Folder. Where exports are saved', current: false },
    ]);

    await userEvent.click(screen.getByRole('radio', { name: /^Sandbox/ }));
    screen.getByRole('button', { name: 'Next' }).focus();
    await userEvent.keyboard('{Enter}');
    const credentials = await screen.findByRole('heading', { name: 'Connect to Sandbox' });
    await waitFor(() => expect(document.activeElement).toBe(credentials));
    expect(steps()).toEqual([
      { text: 'Step 1 of 3: Environment, done. Where files go', current: false },
      { text: 'Step 2 of 3: Credentials. Connect to the service', current: true },
      { text: 'Step 3 of 3: Folder. Where exports are saved', current: false },
    ]);

    screen.getByRole('button', { name: 'Back' }).focus();
    await userEvent.keyboard('{Enter}');
    const environment = await screen.findByRole('heading', { name: 'Choose the environment' });
    await waitFor(() => expect(document.activeElement).toBe(environment));
    expect(steps()[0]).toEqual({ text: 'Step 1 of 3: Environment. Where files go', current: true });
  });
});
