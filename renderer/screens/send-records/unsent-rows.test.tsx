// @vitest-environment happy-dom
import '../../test-kit/setup-dom';
import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import type { BridgeResponse } from '../../../shared/bridge';
import { createMemoryBridge } from '../../test-kit/memory-bridge';
import { renderScreen } from '../../test-kit/render-screen';
import { ConnectionLost } from '../../shell/connection-lost';
import { SendRecordsScreen } from './send-records-screen';

/** The frame as the app has it: the connection-lost banner's place above the open screen, Send records or another. */
function Frame() {
  const [here, setHere] = useState(true);
  return (
    <>
      <ConnectionLost />
      <button type="button" onClick={() => setHere(!here)}>{here ? 'Go to Queue' : 'Back to Send records'}</button>
      {here ? <SendRecordsScreen /> : <p>The Queue screen</p>}
    </>
  );
}

/** What the browser does before a reload or a closed tab: true when the page asked it to ask the clerk first. */
function browserWouldAsk(): boolean {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
}

function acceptingBridge(platform: 'browser' | 'desktop' = 'browser') {
  const bridge = createMemoryBridge({ platform });
  bridge.override('batches.send', (request): BridgeResponse<'batches.send'> => ({
    ok: true, importId: '0b6f3a52-2f4c-4d6e-9a51-6d2f3c1e7a10', records: request.records.length, receivedAt: '2026-11-22T10:00:00Z',
    batch: { id: 1, kind: request.kind, records: request.records.length, state: 'sent', createdAt: 1, stateChangedAt: 2 },
  }));
  return bridge;
}

const receipts = () => screen.getByRole('form', { name: 'Receipts' });
const typeInto = (label: string, value: string) =>
  fireEvent.change(within(receipts()).getByRole('textbox', { name: label }), { target: { value } });

describe('rows not sent, in browser mode', () => {
  it('has the browser ask before the page goes while a form holds a row not sent, on any screen, until it is gone', async () => {
    const { unmount } = renderScreen(<Frame />, acceptingBridge());
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: 'Send records' });
    expect(browserWouldAsk()).toBe(false);

    await user.click(screen.getByRole('tab', { name: 'Receipts' }));
    typeInto('Last name Receipt 1', 'Lee');
    expect(browserWouldAsk()).toBe(true);
    // The draft outlives the screen, and so does the question.
    await user.click(screen.getByRole('button', { name: 'Go to Queue' }));
    expect(browserWouldAsk()).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Back to Send records' }));

    // A row with nothing typed in it is not work to lose.
    await user.click(within(receipts()).getByRole('button', { name: 'Start over' }));
    expect(browserWouldAsk()).toBe(false);

    // Never in the desktop app, whose window would then refuse to close without a word.
    unmount();
    renderScreen(<Frame />, acceptingBridge('desktop'));
    await user.click(await screen.findByRole('tab', { name: 'Receipts' }));
    typeInto('Last name Receipt 1', 'Lee');
    expect(browserWouldAsk()).toBe(false);
  });

  it('stops asking once the rows are sent', async () => {
    renderScreen(<Frame />, acceptingBridge());
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: 'Send records' });
    const person = screen.getByRole('group', { name: 'Person 1' });
    for (const [label, value] of [[/^Last name/, 'Smith'], [/^First name/, 'Anna'], [/^Employee registration/, 'E-1'], [/^Hire date/, '2026-01-05']] as const) {
      fireEvent.change(within(person).getByLabelText(label), { target: { value } });
    }
    await user.selectOptions(within(person).getByLabelText(/^Employee status/), 'Active');
    expect(browserWouldAsk()).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Send 1 person' }));
    expect(await screen.findByText(/The service received 1 record/)).toBeTruthy();
    expect(browserWouldAsk()).toBe(false);
  });

  it('asks too while rows wait in a paste box, or JSON is in the JSON box, though no form holds a row', async () => {
    renderScreen(<Frame />, acceptingBridge());
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: 'Send records' });
    await user.click(screen.getByRole('tab', { name: 'Receipts' }));

    // A bad row left in the box, "so nothing is lost": the good one went to the form, and is sent.
    within(receipts()).getByRole('textbox', { name: 'Last name Receipt 1' }).focus();
    await user.paste('Smith\tAnna\t123-45-6789\tE-1\t2026-03-15\t10\nLee\tBo\t987-65-4321\tE-2\t2026-02-30\t20');
    expect(within(receipts()).getByLabelText<HTMLTextAreaElement>('Rows copied from a spreadsheet').value).toContain('Lee');
    await user.click(within(receipts()).getByRole('button', { name: 'Send 1 receipt' }));
    expect(await within(receipts()).findByText(/The service received 1 record/)).toBeTruthy();
    expect(browserWouldAsk()).toBe(true);
    // Put aside with Cancel, the rows are still in the box.
    await user.click(within(receipts()).getByRole('button', { name: 'Cancel' }));
    expect(browserWouldAsk()).toBe(true);
    await user.click(within(receipts()).getByRole('button', { name: 'Paste from a spreadsheet' }));
    fireEvent.change(within(receipts()).getByLabelText('Rows copied from a spreadsheet'), { target: { value: '' } });
    expect(browserWouldAsk()).toBe(false);

    // Text in the JSON box, read or not yet.
    await user.click(screen.getByRole('tab', { name: 'JSON file' }));
    fireEvent.change(screen.getByLabelText('Or paste JSON here'), { target: { value: '[{"lastName": "Kim"' } });
    expect(browserWouldAsk()).toBe(true);
    fireEvent.change(screen.getByLabelText('Or paste JSON here'), { target: { value: '' } });
    expect(browserWouldAsk()).toBe(false);
  });
});
