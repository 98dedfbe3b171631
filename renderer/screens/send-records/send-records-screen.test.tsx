// @vitest-environment happy-dom
import '../../test-kit/setup-dom';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { BridgeError, type BridgeRequest, type BridgeResponse } from '../../../shared/bridge';
import { createMemoryBridge } from '../../test-kit/memory-bridge';
import { renderScreen } from '../../test-kit/render-screen';
import { SendRecordsScreen } from './send-records-screen';

const batch = { id: 1, kind: 'census' as const, records: 1, state: 'sent' as const, createdAt: 1, stateChangedAt: 2 };
const IMPORT_ID = '0b6f3a52-2f4c-4d6e-9a51-6d2f3c1e7a10';

function bridgeThatAccepts() {
  const bridge = createMemoryBridge();
  const sent: BridgeRequest<'batches.send'>[] = [];
  bridge.override('batches.send', (request): BridgeResponse<'batches.send'> => {
    sent.push(request);
    return { ok: true, importId: IMPORT_ID, records: request.records.length, receivedAt: '2026-11-22T10:00:00Z', batch: { ...batch, records: request.records.length } };
  });
  return { bridge, sent };
}

const person = (n: number) => screen.getByRole('group', { name: `Person ${n}` });
const type = (where: HTMLElement, label: string | RegExp, value: string) => {
  fireEvent.change(within(where).getByLabelText(label), { target: { value } });
};

/** Fills the required fields of person n, choosing the status as a clerk would. */
async function fillRequired(user: ReturnType<typeof userEvent.setup>, n: number,
  fields: { lastName: string; firstName: string; employeeRegistration: string; hireDate: string; status: string }) {
  type(person(n), /^Last name/, fields.lastName);
  type(person(n), /^First name/, fields.firstName);
  type(person(n), /^Employee registration/, fields.employeeRegistration);
  type(person(n), /^Hire date/, fields.hireDate);
  await user.selectOptions(within(person(n)).getByLabelText(/^Employee status/), fields.status);
}

/** The app shows one screen at a time (renderer/shell/use-screen.ts): leaving unmounts Send records, coming back mounts it anew. */
function ScreenSwitch() {
  const [here, setHere] = useState(true);
  return (
    <>
      <button type="button" onClick={() => setHere(!here)}>{here ? 'Go to Queue' : 'Back to Send records'}</button>
      {here ? <SendRecordsScreen /> : <p>The Queue screen</p>}
    </>
  );
}

async function leaveAndComeBack(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: 'Go to Queue' }));
  expect(screen.queryByRole('heading', { name: 'Send records' })).toBeNull();
  await user.click(screen.getByRole('button', { name: 'Back to Send records' }));
  await screen.findByRole('heading', { name: 'Send records' });
}

/** The list of what stopped a send, above the form: a region named by its title. */
const PROBLEMS = /^(Nothing was sent yet|The service refused the batch|Some fields need fixing before sending)$/;
const problems = () => screen.getByRole('region', { name: PROBLEMS });

const describedBy = (el: HTMLElement) => (el.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent).join(' ');

describe('SendRecordsScreen: new hires', () => {
  it('sends two people as one census batch and shows the import id and the record count', async () => {
    const { bridge, sent } = bridgeThatAccepts();
    renderScreen(<SendRecordsScreen />, bridge);
    const user = userEvent.setup();
    await user.type(within(person(1)).getByLabelText(/^Last name/), 'Smith');
    type(person(1), /^First name/, 'Anna');
    type(person(1), /^Employee registration/, 'E-100');
    type(person(1), /^Hire date/, '2026-01-05');
    await user.selectOptions(within(person(1)).getByLabelText(/^Employee status/), 'Active');
    type(person(1), /^Gross annual salary/, '52000.50');
    await user.selectOptions(within(person(1)).getByLabelText(/^Eligible for benefits/), 'No');

    await user.click(screen.getByRole('button', { name: 'Add another person' }));
    await fillRequired(user, 2, { lastName: 'Lee', firstName: 'Bo', employeeRegistration: 'E-101', hireDate: '2026-02-01', status: 'On leave' });

    await user.click(screen.getByRole('button', { name: 'Send 2 people' }));
    expect(await screen.findByText(`The service received 2 records. Import id: ${IMPORT_ID}.`)).toBeTruthy();
    expect(sent).toEqual([{
      kind: 'census',
      records: [
        { lastName: 'Smith', firstName: 'Anna', employeeRegistration: 'E-100', hireDate: '2026-01-05', employeeStatus: 'ACTIVE', grossAnnualSalary: 52000.5, eligibleForBenefits: false },
        { lastName: 'Lee', firstName: 'Bo', employeeRegistration: 'E-101', hireDate: '2026-02-01', employeeStatus: 'ON_LEAVE' },
      ],
    }]);
    // The form is clean again, so a second click cannot send the same people twice.
    expect(within(person(1)).getByLabelText<HTMLInputElement>(/^Last name/).value).toBe('');
    expect(screen.queryByRole('group', { name: 'Person 2' })).toBeNull();
  });

  it('shows only the latest outcome: a send that fails takes the earlier success banner away', async () => {
    const { bridge } = bridgeThatAccepts();
    renderScreen(<SendRecordsScreen />, bridge);
    const user = userEvent.setup();
    await fillRequired(user, 1, { lastName: 'Smith', firstName: 'Anna', employeeRegistration: 'E-100', hireDate: '2026-01-05', status: 'Active' });
    await user.click(screen.getByRole('button', { name: 'Send 1 person' }));
    const sentBanner = /The service received 1 record/;
    expect(await screen.findByText(sentBanner)).toBeTruthy();

    // The next person is incomplete: the local check refuses the send before anything goes out.
    type(person(1), /^Last name/, 'Lee');
    await user.click(screen.getByRole('button', { name: 'Send 1 person' }));
    await waitFor(() => expect(problems().textContent).toContain('Person 1: First name is required'));
    expect(screen.queryByText(sentBanner)).toBeNull();
    expect(screen.queryByText('Sent')).toBeNull();

    // And a send refused by the service after a success shows only the refusal.
    type(person(1), /^First name/, 'Bo');
    type(person(1), /^Employee registration/, 'E-101');
    type(person(1), /^Hire date/, '2026-02-01');
    await user.selectOptions(within(person(1)).getByLabelText(/^Employee status/), 'Active');
    await user.click(screen.getByRole('button', { name: 'Send 1 person' }));
    expect(await screen.findByText(/The service received 1 record/)).toBeTruthy();
    bridge.override('batches.send', () => ({ ok: false, problems: [{ message: 'the service is down', source: 'service' }] }));
    await fillRequired(user, 1, { lastName: 'Kim', firstName: 'Jo', employeeRegistration: 'E-102', hireDate: '2026-03-01', status: 'Active' });
    await user.click(screen.getByRole('button', { name: 'Send 1 person' }));
    expect((await screen.findByRole('region', { name: PROBLEMS })).textContent).toContain('the service is down');
    expect(screen.queryByText(sentBanner)).toBeNull();
  });

  it('marks the census fields with their labels, required ones and choices in words', () => {
    renderScreen(<SendRecordsScreen />);
    const card = person(1);
    for (const label of ['Last name', 'First name', 'Employee registration', 'Hire date', 'Employee status', 'Gross annual salary', 'Personnel subarea']) {
      const input = within(card).getByLabelText<HTMLInputElement>(new RegExp(`^${label}( \\*)?$`));
      expect(input.required).toBe(!['Gross annual salary', 'Personnel subarea'].includes(label));
    }
    expect(card.querySelectorAll('input, select')).toHaveLength(16);
    expect(within(card).getByLabelText<HTMLInputElement>(/^Hire date/).type).toBe('date');
    const status = within(card).getByRole('combobox', { name: /^Employee status/ });
    expect(within(status).getAllByRole('option').map((o) => o.textContent)).toEqual(['Choose…', 'Active', 'On leave', 'Terminated']);
  });

  it('shows the schema problems next to their fields and sends nothing', async () => {
    const { bridge, sent } = bridgeThatAccepts();
    renderScreen(<SendRecordsScreen />, bridge);
    const user = userEvent.setup();
    type(person(1), /^Last name/, 'Smith');
    type(person(1), /^Pay periods per year/, '400');
    await user.click(screen.getByRole('button', { name: 'Send 1 person' }));

    const hire = within(person(1)).getByLabelText(/^Hire date/);
    await waitFor(() => expect(hire.getAttribute('aria-invalid')).toBe('true'));
    expect(describedBy(hire)).toContain('Hire date is required');
    expect(describedBy(within(person(1)).getByLabelText(/^Pay periods per year/))).toContain('Pay periods per year must be 1 to 366');
    expect(within(person(1)).getByLabelText(/^Last name/).getAttribute('aria-invalid')).not.toBe('true');
    expect(problems().textContent).toContain('Person 1: Hire date is required');
    expect(sent).toEqual([]);
  });

  it('marks nothing on a person added after a check stopped the send, until the clerk types into it', async () => {
    const { bridge, sent } = bridgeThatAccepts();
    renderScreen(<SendRecordsScreen />, bridge);
    const user = userEvent.setup();
    type(person(1), /^Last name/, 'Smith');
    await user.click(screen.getByRole('button', { name: 'Send 1 person' }));
    await waitFor(() => expect(within(person(1)).getByLabelText(/^Hire date/).getAttribute('aria-invalid')).toBe('true'));

    await user.click(screen.getByRole('button', { name: 'Add another person' }));
    await screen.findByRole('group', { name: 'Person 2' });
    // Person 1 is checked again with the form (the array changed); that check must be over before looking at person 2.
    await waitFor(() => expect(problems().textContent).toContain('Person 1: Hire date is required'));
    const invalid = () => within(person(2)).queryAllByRole('textbox').concat(within(person(2)).queryAllByRole('combobox'))
      .filter((el) => el.getAttribute('aria-invalid') === 'true');
    expect(invalid()).toEqual([]);
    expect(problems().textContent).not.toContain('Person 2');

    // Typed into, it is a person like any other: Send names what it still lacks.
    type(person(2), /^Last name/, 'Jones');
    await user.click(screen.getByRole('button', { name: 'Send 2 people' }));
    await waitFor(() => expect(within(person(2)).getByLabelText(/^Hire date/).getAttribute('aria-invalid')).toBe('true'));
    expect(problems().textContent).toContain('Person 2: Hire date is required');
    expect(sent).toEqual([]);
  });

  it('says that a date that does not exist is not a real date, rather than that it is required', async () => {
    const { bridge, sent } = bridgeThatAccepts();
    renderScreen(<SendRecordsScreen />, bridge);
    const user = userEvent.setup();
    await fillRequired(user, 1, { lastName: 'Smith', firstName: 'Anna', employeeRegistration: 'E-1', hireDate: '', status: 'Active' });
    // A clerk typing 02/30/2026 (or 31/04 on a day-first system) leaves the date input empty, with validity.badInput
    // set: so Chromium does (the end-to-end test types it there); happy-dom keeps the empty value but not the flag.
    const hire = within(person(1)).getByLabelText<HTMLInputElement>(/^Hire date/);
    const typedBadDate = () => Object.defineProperty(hire, 'validity', { configurable: true, get: () => ({ badInput: true, valid: false }) });
    typedBadDate();
    await user.click(screen.getByRole('button', { name: 'Send 1 person' }));

    await waitFor(() => expect(hire.getAttribute('aria-invalid')).toBe('true'));
    const notReal = 'Hire date is not a real date: there is no such day in that month, or part of the date is missing. Check the day, month and year.';
    expect(describedBy(hire)).toContain(notReal);
    expect(describedBy(hire)).not.toContain('required');
    expect(problems().textContent).toContain(`Person 1: ${notReal}`);
    expect(document.activeElement).toBe(hire);
    expect(sent).toEqual([]);

    // Corrected: the date is real again and the batch goes out.
    delete (hire as { validity?: unknown }).validity;
    type(person(1), /^Hire date/, '2026-02-28');
    await waitFor(() => expect(hire.getAttribute('aria-invalid')).not.toBe('true'));
    await user.click(screen.getByRole('button', { name: 'Send 1 person' }));
    expect(await screen.findByText(/The service received 1 record/)).toBeTruthy();
    expect(sent[0]?.records).toEqual([{ lastName: 'Smith', firstName: 'Anna', employeeRegistration: 'E-1', hireDate: '2026-02-28', employeeStatus: 'ACTIVE' }]);
  });

  it('puts the service refusal on the record and field it names', async () => {
    const bridge = createMemoryBridge();
    bridge.override('batches.send', () => ({
      ok: false,
      problems: [
        { index: 1, field: 'employeeRegistration', message: '[1].employeeRegistration: repeats E-1 of [0]', source: 'service' },
        { index: 1, message: 'is not what the service expected', source: 'service' },
        { index: 0, message: 'repeats employeeRegistration E-1 of [1]', source: 'service' },
        { message: 'the service said no', source: 'service' },
        { index: 7, message: 'is beyond the batch', source: 'service' },
      ],
    }));
    renderScreen(<SendRecordsScreen />, bridge);
    const user = userEvent.setup();
    for (const n of [1, 2]) {
      if (n === 2) await user.click(screen.getByRole('button', { name: 'Add another person' }));
      await fillRequired(user, n, { lastName: `Name${n}`, firstName: 'A', employeeRegistration: 'E-1', hireDate: '2026-01-05', status: 'Active' });
    }
    await user.click(screen.getByRole('button', { name: 'Send 2 people' }));

    const field = within(person(2)).getByLabelText(/^Employee registration/);
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    // The service's "[0]" is the first person: the clerk reads it by name.
    expect(within(person(2)).getByText('Employee registration repeats E-1 of Person 1')).toBeTruthy();
    expect(within(person(2)).getByText('is not what the service expected')).toBeTruthy();
    // The service's 422 wording (no field, only the record) still lands on the field it is about.
    expect(within(person(1)).getByLabelText(/^Employee registration/).getAttribute('aria-invalid')).toBe('true');
    expect(within(person(1)).getByText('Employee registration E-1 is also given for Person 2; each must be different in one batch')).toBeTruthy();
    expect(within(person(1)).getByLabelText(/^Last name/).getAttribute('aria-invalid')).not.toBe('true');
    const summary = screen.getByRole('region', { name: 'The service refused the batch' });
    expect(summary?.textContent).toContain('the service said no');
    expect(summary?.textContent).toContain('Person 8: is beyond the batch');
    expect(summary?.textContent).not.toContain('[');
  });

  it('keeps the records when the batch was not sent, and says nothing was imported', async () => {
    const bridge = createMemoryBridge();
    bridge.override('batches.send', () => ({
      ok: false, problems: [{ message: 'The service could not take the records now: 503 Service Unavailable. Nothing was imported: send them again in a while.', source: 'service' }], batch: { ...batch, state: 'failed' },
    }));
    renderScreen(<SendRecordsScreen />, bridge);
    const user = userEvent.setup();
    await fillRequired(user, 1, { lastName: 'Smith', firstName: 'A', employeeRegistration: 'E-1', hireDate: '2026-01-05', status: 'Active' });
    await user.click(screen.getByRole('button', { name: 'Send 1 person' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The batch was not sent');
    expect(alert.textContent).toContain('503 Service Unavailable');
    expect(alert.textContent).toContain('Nothing was imported. Your records are still in the form.');
    expect(within(person(1)).getByLabelText<HTMLInputElement>(/^Last name/).value).toBe('Smith');
  });

  it('says what to do when no connection is set up', async () => {
    const bridge = createMemoryBridge();
    bridge.override('batches.send', () => { throw new BridgeError({ name: 'BridgeError', code: 'not_configured', message: 'no base URL for local' }); });
    renderScreen(<SendRecordsScreen />, bridge);
    const user = userEvent.setup();
    await fillRequired(user, 1, { lastName: 'Smith', firstName: 'A', employeeRegistration: 'E-1', hireDate: '2026-01-05', status: 'Active' });
    await user.click(screen.getByRole('button', { name: 'Send 1 person' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Open Settings');
  });

  it('says the batch was not sent when the core refused it before sending (the built-in server stopped), not that it may have arrived', async () => {
    const bridge = createMemoryBridge();
    // What the core answers while the Local environment names its own server and that server is stopped (a 409).
    const stopped = 'The built-in local test server is stopped: start it on the Local server screen (files wait for it), or choose another environment in Settings';
    bridge.override('batches.send', () => { throw new BridgeError({ name: 'ConflictError', code: 'conflict', message: stopped }); });
    renderScreen(<SendRecordsScreen />, bridge);
    const user = userEvent.setup();
    await fillRequired(user, 1, { lastName: 'Smith', firstName: 'A', employeeRegistration: 'E-1', hireDate: '2026-01-05', status: 'Active' });
    await user.click(screen.getByRole('button', { name: 'Send 1 person' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The batch was not sent');
    expect(alert.textContent).toContain(stopped);
    expect(alert.textContent).toContain('Nothing was imported. Your records are still in the form.');
    expect(screen.queryByText(/may have reached the service|import them twice/)).toBeNull();
    expect(within(person(1)).getByLabelText<HTMLInputElement>(/^Last name/).value).toBe('Smith');
  });
});

describe('SendRecordsScreen: drafts kept while the app runs', () => {
  it('keeps every panel as the clerk left it when they go to another screen and come back', async () => {
    renderScreen(<ScreenSwitch />);
    const user = userEvent.setup();
    type(person(1), /^Last name/, 'Smith');
    await user.click(screen.getByRole('button', { name: 'Add another person' }));
    type(person(2), /^First name/, 'Bo');
    await user.click(screen.getByRole('button', { name: 'Send 2 people' }));
    await waitFor(() => expect(problems().textContent).toContain('Person 1: First name is required'));

    await user.click(screen.getByRole('tab', { name: 'Termination' }));
    type(screen.getByRole('form', { name: 'Termination' }), /^Employee registration/, 'E-9');
    await user.click(screen.getByRole('tab', { name: 'JSON file' }));
    await user.click(screen.getByRole('radio', { name: 'Receipts' }));
    fireEvent.change(screen.getByLabelText('Or paste JSON here'), { target: { value: '[{"lastName":"Kim"}]' } });
    await user.click(screen.getByRole('tab', { name: 'Receipts' }));
    const receipts = () => screen.getByRole('form', { name: 'Receipts' });
    fireEvent.change(within(receipts()).getByRole('textbox', { name: 'Last name Receipt 1' }), { target: { value: 'Lee' } });

    await leaveAndComeBack(user);

    // Back where the clerk was, with everything typed.
    expect(screen.getByRole('tab', { name: 'Receipts' }).getAttribute('aria-selected')).toBe('true');
    expect(within(receipts()).getByRole<HTMLInputElement>('textbox', { name: 'Last name Receipt 1' }).value).toBe('Lee');
    await user.click(screen.getByRole('tab', { name: 'Termination' }));
    expect(within(screen.getByRole('form', { name: 'Termination' })).getByLabelText<HTMLInputElement>(/^Employee registration/).value).toBe('E-9');
    await user.click(screen.getByRole('tab', { name: 'JSON file' }));
    expect(screen.getByLabelText<HTMLTextAreaElement>('Or paste JSON here').value).toBe('[{"lastName":"Kim"}]');
    expect(screen.getByRole<HTMLInputElement>('radio', { name: 'Receipts' }).checked).toBe(true);
    await user.click(screen.getByRole('tab', { name: 'New hires' }));
    expect(within(person(1)).getByLabelText<HTMLInputElement>(/^Last name/).value).toBe('Smith');
    expect(within(person(2)).getByLabelText<HTMLInputElement>(/^First name/).value).toBe('Bo');
    // The problems of the failed send are still shown, and fields are still checked as they change.
    const first = within(person(1)).getByLabelText(/^First name/);
    expect(first.getAttribute('aria-invalid')).toBe('true');
    expect(problems().textContent).toContain('Person 1: First name is required');
    type(person(1), /^First name/, 'Anna');
    await waitFor(() => expect(first.getAttribute('aria-invalid')).not.toBe('true'));
  });

  it('says so when a date that does not exist could not be kept, instead of leaving the field silently empty', async () => {
    renderScreen(<ScreenSwitch />);
    const user = userEvent.setup();
    type(person(1), /^Last name/, 'Smith');
    // As Chromium leaves a date input holding 02/30/2026: no value, validity.badInput set (happy-dom has no flag).
    const hire = within(person(1)).getByLabelText<HTMLInputElement>(/^Hire date/);
    Object.defineProperty(hire, 'validity', { configurable: true, get: () => ({ badInput: true, valid: false }) });

    await leaveAndComeBack(user);

    const again = within(person(1)).getByLabelText<HTMLInputElement>(/^Hire date/);
    expect(within(person(1)).getByLabelText<HTMLInputElement>(/^Last name/).value).toBe('Smith');
    expect(again.getAttribute('aria-invalid')).toBe('true');
    expect(describedBy(again)).toContain('Hire date was emptied: what was typed was not a real date');
    expect(problems().textContent).toContain('Person 1: Hire date was emptied');
    // Nothing was sent, nor tried: the list does not speak of a send.
    expect(problems().textContent).toContain('Some fields need fixing before sending');
    expect(problems().textContent).not.toMatch(/sent yet|send again/);
    // Typing the date again takes the mark away at once.
    type(person(1), /^Hire date/, '2026-02-28');
    await waitFor(() => expect(again.getAttribute('aria-invalid')).not.toBe('true'));
    expect(screen.queryByRole('region', { name: PROBLEMS })).toBeNull();
  });

  it('forgets a draft once its batch is sent, or when the clerk starts over', async () => {
    const { bridge, sent } = bridgeThatAccepts();
    renderScreen(<ScreenSwitch />, bridge);
    const user = userEvent.setup();
    await fillRequired(user, 1, { lastName: 'Smith', firstName: 'Anna', employeeRegistration: 'E-1', hireDate: '2026-01-05', status: 'Active' });
    await user.click(screen.getByRole('button', { name: 'Send 1 person' }));
    expect(await screen.findByText(/The service received 1 record/)).toBeTruthy();
    await user.click(screen.getByRole('tab', { name: 'Receipts' }));
    const receipts = () => screen.getByRole('form', { name: 'Receipts' });
    fireEvent.change(within(receipts()).getByRole('textbox', { name: 'Last name Receipt 1' }), { target: { value: 'Lee' } });
    await user.click(within(receipts()).getByRole('button', { name: 'Start over' }));

    await leaveAndComeBack(user);

    expect(within(receipts()).getByRole<HTMLInputElement>('textbox', { name: 'Last name Receipt 1' }).value).toBe('');
    await user.click(screen.getByRole('tab', { name: 'New hires' }));
    expect(within(person(1)).getByLabelText<HTMLInputElement>(/^Last name/).value).toBe('');
    expect(screen.getByText(/The service received 1 record/)).toBeTruthy();
    expect(sent).toHaveLength(1);
  });

  it('an answer that comes while the clerk is on another screen still empties the form, and no second send starts meanwhile', async () => {
    const { bridge, sent } = bridgeThatAccepts();
    let answer = () => {};
    const answered = new Promise<void>((resolve) => { answer = resolve; });
    const call = bridge.call.bind(bridge);
    bridge.call = ((method, request) => (method === 'batches.send' ? answered.then(() => call(method, request)) : call(method, request)));
    renderScreen(<ScreenSwitch />, bridge);
    const user = userEvent.setup();
    await fillRequired(user, 1, { lastName: 'Smith', firstName: 'Anna', employeeRegistration: 'E-1', hireDate: '2026-01-05', status: 'Active' });
    await user.click(screen.getByRole('button', { name: 'Send 1 person' }));

    await leaveAndComeBack(user);
    // Still on its way: the records are shown, but cannot be sent a second time. The button is busy, not disabled
    // (a disabled button loses the keyboard focus): a press does nothing.
    expect(within(person(1)).getByLabelText<HTMLInputElement>(/^Last name/).value).toBe('Smith');
    const busy = screen.getByRole<HTMLButtonElement>('button', { name: 'Send 1 person' });
    expect([busy.getAttribute('aria-busy'), busy.getAttribute('aria-disabled')]).toEqual(['true', 'true']);
    await user.click(busy);

    await user.click(screen.getByRole('button', { name: 'Go to Queue' }));
    answer();
    await waitFor(() => expect(sent).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: 'Back to Send records' }));
    expect(await screen.findByText(/The service received 1 record/)).toBeTruthy();
    expect(within(person(1)).getByLabelText<HTMLInputElement>(/^Last name/).value).toBe('');
    const idle = screen.getByRole<HTMLButtonElement>('button', { name: 'Send 1 person' });
    expect([idle.disabled, idle.getAttribute('aria-busy'), idle.getAttribute('aria-disabled')]).toEqual([false, null, null]);
    expect(sent).toHaveLength(1);
  });
});

describe('SendRecordsScreen: termination, receipts and JSON', () => {
  it('sends a termination as a census record with status Terminated', async () => {
    const { bridge, sent } = bridgeThatAccepts();
    renderScreen(<SendRecordsScreen />, bridge);
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: 'Termination' }));
    const form = screen.getByRole('form', { name: 'Termination' });
    type(form, /^Employee registration/, 'E-100');
    type(form, /^Last name/, 'Smith');
    type(form, /^First name/, 'Anna');
    type(form, /^Hire date/, '2026-01-05');
    await user.click(within(form).getByRole('button', { name: 'Send termination' }));
    expect(await within(form).findByText(/Import id/)).toBeTruthy();
    expect(sent[0]).toEqual({ kind: 'census', records: [{ lastName: 'Smith', firstName: 'Anna', employeeRegistration: 'E-100', hireDate: '2026-01-05', employeeStatus: 'TERMINATED' }] });
  });

  it('fills the receipts grid from pasted spreadsheet rows and marks a bad cell in its row', async () => {
    const { bridge, sent } = bridgeThatAccepts();
    renderScreen(<SendRecordsScreen />, bridge);
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: 'Receipts' }));
    const form = screen.getByRole('form', { name: 'Receipts' });
    await user.click(within(form).getByRole('button', { name: 'Paste from a spreadsheet' }));
    fireEvent.change(within(form).getByLabelText('Rows copied from a spreadsheet'), {
      target: { value: 'Last name\tFirst name\tSSN\tEmployee registration\tPayment date\tAmount\nSmith\tAnna\t123-45-6789\tE-1\t2026-03-15\t125.50\nLee\tBo\t987654321\tE-2\t03/16/2026\t80\n' },
    });
    await user.click(within(form).getByRole('button', { name: 'Add these rows' }));
    expect(within(form).getByRole('status').textContent).toBe('2 rows added. Check them, then send.');

    const cell = (column: string, row: number) => within(form).getByRole<HTMLInputElement>('textbox', { name: `${column} Receipt ${row}` });
    expect(cell('Last name', 1).value).toBe('Smith');
    expect(cell('Amount', 1).value).toBe('125.50');
    expect(within(form).getByLabelText<HTMLInputElement>('Payment date Receipt 2').value).toBe('2026-03-16');
    await waitFor(() => expect(cell('SSN', 2).getAttribute('aria-invalid')).toBe('true'));
    expect(within(form).getByText('SSN must be written 123-45-6789')).toBeTruthy();
    expect(cell('SSN', 1).getAttribute('aria-invalid')).not.toBe('true');

    fireEvent.change(cell('SSN', 2), { target: { value: '987-65-4321' } });
    await user.click(within(form).getByRole('button', { name: 'Send 2 receipts' }));
    expect(await within(form).findByText(/The service received 2 records/)).toBeTruthy();
    expect(sent[0]?.records).toEqual([
      { lastName: 'Smith', firstName: 'Anna', ssn: '123-45-6789', employeeRegistration: 'E-1', paymentDate: '2026-03-15', amount: 125.5 },
      { lastName: 'Lee', firstName: 'Bo', ssn: '987-65-4321', employeeRegistration: 'E-2', paymentDate: '2026-03-16', amount: 80 },
    ]);
  });

  it('reads pasted day-first dates day first, shows under the field how a date that reads two ways was read, and sends that date', async () => {
    const { bridge, sent } = bridgeThatAccepts();
    renderScreen(<SendRecordsScreen />, bridge);
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: 'Receipts' }));
    const form = screen.getByRole('form', { name: 'Receipts' });
    within(form).getByRole('textbox', { name: 'Last name Receipt 1' }).focus();
    await user.paste('Smith\tAnna\t123-45-6789\tE-1\t05/03/2026\t10\nLee\tBo\t987-65-4321\tE-2\t31/03/2026\t20');
    const date = (row: number) => within(form).getByLabelText<HTMLInputElement>(`Payment date Receipt ${row}`);
    expect([date(1).value, date(2).value]).toEqual(['2026-03-05', '2026-03-31']);
    const note = '"05/03/2026" was read as 5 March 2026 (day first, as 31/03/2026 in the same column shows). If it is 3 May 2026, correct the date.';
    expect(within(form).getByText(note)).toBeTruthy();
    expect(describedBy(date(1))).toContain(note);
    expect(describedBy(date(2))).not.toContain('was read as');

    // Changed by the clerk, the field holds another date: the note speaks of it no more.
    fireEvent.change(date(1), { target: { value: '2026-05-03' } });
    expect(within(form).queryByText(note)).toBeNull();
    await user.click(within(form).getByRole('button', { name: 'Send 2 receipts' }));
    expect(await within(form).findByText(/The service received 2 records/)).toBeTruthy();
    expect(sent[0]?.records.map((r) => (r as { paymentDate: string }).paymentDate)).toEqual(['2026-05-03', '2026-03-31']);
  });

  it('takes rows pasted straight into a cell of the grid', async () => {
    renderScreen(<SendRecordsScreen />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: 'Receipts' }));
    const form = screen.getByRole('form', { name: 'Receipts' });
    const first = within(form).getByRole('textbox', { name: 'Last name Receipt 1' });
    first.focus();
    await user.paste('Smith\tAnna\t123-45-6789\tE-1\t2026-03-15\t10\nLee\tBo\t987-65-4321\tE-2\t2026-03-16\t20');
    expect(within(form).getByRole<HTMLInputElement>('textbox', { name: 'Last name Receipt 2' }).value).toBe('Lee');
  });

  it('takes the good pasted rows and leaves the bad one in the box, named by its row, to be corrected', async () => {
    renderScreen(<SendRecordsScreen />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: 'Receipts' }));
    const form = screen.getByRole('form', { name: 'Receipts' });
    await user.click(within(form).getByRole('button', { name: 'Paste from a spreadsheet' }));
    const header = 'Last name\tFirst name\tSSN\tEmployee registration\tPayment date\tAmount';
    const box = () => within(form).getByLabelText<HTMLTextAreaElement>('Rows copied from a spreadsheet');
    fireEvent.change(box(), {
      target: { value: `${header}\nSmith\tAnna\t123-45-6789\tE-1\t2026-03-15\t10\nLee\tBo\t987-65-4321\tE-2\t2026-02-30\t20\nKim\tJo\t111-22-3333\tE-3\t2026-03-16\t30\n` },
    });
    await user.click(within(form).getByRole('button', { name: 'Add these rows' }));

    expect(within(form).getByRole('status').textContent).toBe('2 rows added. Check them, then send.');
    const alert = within(form).getByRole('alert');
    expect(alert.textContent).toContain('These rows were not added');
    expect(alert.textContent).toContain('Row 3, Payment date: "2026-02-30" is not a real date: February 2026 has 28 days');
    expect(alert.textContent).toContain('They are still in the box');
    const lastName = (row: number) => within(form).getByRole<HTMLInputElement>('textbox', { name: `Last name Receipt ${row}` });
    expect([lastName(1).value, lastName(2).value]).toEqual(['Smith', 'Kim']);
    expect(box().value).toBe(`${header}\nLee\tBo\t987-65-4321\tE-2\t2026-02-30\t20`);

    // Corrected in the box and added again: the third row joins the others, and the box closes.
    fireEvent.change(box(), { target: { value: box().value.replace('2026-02-30', '2026-02-28') } });
    await user.click(within(form).getByRole('button', { name: 'Add these rows' }));
    expect(within(form).getByRole('status').textContent).toBe('1 row added. Check it, then send.');
    expect(lastName(3).value).toBe('Lee');
    expect(within(form).getByLabelText<HTMLInputElement>('Payment date Receipt 3').value).toBe('2026-02-28');
    expect(within(form).queryByRole('alert')).toBeNull();
    expect(within(form).queryByLabelText('Rows copied from a spreadsheet')).toBeNull();
  });

  it('puts the bad rows of a paste straight into a cell in the box, instead of losing them', async () => {
    renderScreen(<SendRecordsScreen />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: 'Receipts' }));
    const form = screen.getByRole('form', { name: 'Receipts' });
    within(form).getByRole('textbox', { name: 'Last name Receipt 1' }).focus();
    await user.paste('Smith\tAnna\t123-45-6789\tE-1\t2026-03-15\t10\nLee\tBo\t987-65-4321\tE-2\t31/04/2026\t20');
    expect(within(form).getByRole<HTMLInputElement>('textbox', { name: 'Last name Receipt 1' }).value).toBe('Smith');
    expect(within(form).queryByRole('textbox', { name: 'Last name Receipt 2' })).toBeNull();
    expect(within(form).getByRole('alert').textContent).toContain('Row 2, Payment date: "31/04/2026" is not a real date: April 2026 has 30 days');
    expect(within(form).getByLabelText<HTMLTextAreaElement>('Rows copied from a spreadsheet').value).toBe('Lee\tBo\t987-65-4321\tE-2\t31/04/2026\t20');
  });

  it('keeps the rows waiting in the paste box when more rows are pasted into a cell: the new paste is turned away, saying why', async () => {
    renderScreen(<SendRecordsScreen />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: 'Receipts' }));
    const form = screen.getByRole('form', { name: 'Receipts' });
    const lastName = (row: number) => within(form).queryByRole<HTMLInputElement>('textbox', { name: `Last name Receipt ${row}` });
    const box = () => within(form).getByLabelText<HTMLTextAreaElement>('Rows copied from a spreadsheet');
    const refusal = () => within(form).queryAllByRole('alert').find((a) => a.textContent?.includes('The rows you pasted were not added'));
    const waiting = 'Lee\tBo\t987-65-4321\tE-2\t31/04/2026\t20';
    const more = 'Kim\tJo\t111-22-3333\tE-3\t2026-03-16\t30\nPark\tMin\t222-33-4444\tE-4\t2026-03-17\t40';
    lastName(1)!.focus();
    await user.paste(`Smith\tAnna\t123-45-6789\tE-1\t2026-03-15\t10\n${waiting}`);
    expect(box().value).toBe(waiting);
    expect(within(form).getByRole('status').textContent).toBe('1 row added. Check it, then send.');

    // More rows pasted into a cell, all of them good: the row waiting in the box is neither replaced nor dropped.
    lastName(1)!.focus();
    await user.paste(more);
    expect(box().value).toBe(waiting);
    expect(refusal()?.textContent).toContain('still holds rows that were not added');
    expect(within(form).getAllByRole('alert').some((a) => a.textContent?.includes('Row 2, Payment date: "31/04/2026" is not a real date'))).toBe(true);
    expect([lastName(1)?.value, lastName(2)]).toEqual(['Smith', null]);
    // "1 row added" was the first paste's: beside the words that this one added nothing, it would read as its outcome.
    expect(within(form).queryByRole('status')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(box()));

    // Put aside with Cancel, the row is still in the closed box: a cell paste is turned away again, and the box opens.
    await user.click(within(form).getByRole('button', { name: 'Cancel' }));
    expect(refusal()).toBeUndefined();
    lastName(1)!.focus();
    await user.paste(more);
    expect(box().value).toBe(waiting);
    expect(refusal()).toBeDefined();
    expect(lastName(2)).toBeNull();

    // Corrected and added, the box is empty: the same paste into a cell is taken.
    fireEvent.change(box(), { target: { value: waiting.replace('31/04/2026', '04/30/2026') } });
    await user.click(within(form).getByRole('button', { name: 'Add these rows' }));
    expect(refusal()).toBeUndefined();
    lastName(1)!.focus();
    await user.paste(more);
    expect([1, 2, 3, 4].map((n) => lastName(n)?.value)).toEqual(['Smith', 'Lee', 'Kim', 'Park']);
  });

  it('refuses pasted rows a date input cannot hold, naming row and column', async () => {
    renderScreen(<SendRecordsScreen />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: 'Receipts' }));
    const form = screen.getByRole('form', { name: 'Receipts' });
    await user.click(within(form).getByRole('button', { name: 'Paste from a spreadsheet' }));
    fireEvent.change(within(form).getByLabelText('Rows copied from a spreadsheet'), { target: { value: 'Smith\tAnna\t123-45-6789\tE-1\t15.03.2026\t10' } });
    await user.click(within(form).getByRole('button', { name: 'Add these rows' }));
    expect(within(form).getByRole('alert').textContent).toContain('Row 1, Payment date: "15.03.2026" is not a date');
    expect(within(form).getByRole<HTMLInputElement>('textbox', { name: 'Last name Receipt 1' }).value).toBe('');
    expect(within(form).getByLabelText<HTMLTextAreaElement>('Rows copied from a spreadsheet').value).toBe('Smith\tAnna\t123-45-6789\tE-1\t15.03.2026\t10');
  });

  it('loads a JSON file into the new hires form', async () => {
    renderScreen(<SendRecordsScreen />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: 'JSON file' }));
    const records = [
      { lastName: 'Smith', firstName: 'Anna', employeeRegistration: 'E-1', hireDate: '2026-01-05', employeeStatus: 'ACTIVE' },
      { lastName: 'Lee', firstName: 'Bo', employeeRegistration: 'E-2', hireDate: '2026-01-06', employeeStatus: 'ACTIVE', payCycle: 'MONTHLY' },
    ];
    const input = document.querySelector('input[type=file]') as HTMLInputElement;
    await user.upload(input, new File([JSON.stringify(records)], 'hires.json', { type: 'application/json' }));
    await waitFor(() => expect(screen.getByRole('tab', { name: 'New hires' }).getAttribute('aria-selected')).toBe('true'));
    expect(screen.getByRole('status').textContent).toContain('2 records were put in the new hires form');
    expect(within(person(2)).getByLabelText<HTMLInputElement>(/^Last name/).value).toBe('Lee');
    expect(within(person(2)).getByLabelText<HTMLSelectElement>(/^Pay cycle/).value).toBe('MONTHLY');
  });

  it('adds JSON records after a person already typed rather than replace them', async () => {
    renderScreen(<SendRecordsScreen />);
    const user = userEvent.setup();
    type(person(1), /^Last name/, 'Keepme');
    type(person(1), /^Employee registration/, 'E-7777');
    await user.click(screen.getByRole('tab', { name: 'JSON file' }));
    fireEvent.change(screen.getByLabelText('Or paste JSON here'), { target: { value: JSON.stringify([{ lastName: 'Smith', employeeRegistration: 'E-1' }]) } });
    await user.click(screen.getByRole('button', { name: 'Put the records in the form' }));
    await waitFor(() => expect(screen.getByRole('tab', { name: 'New hires' }).getAttribute('aria-selected')).toBe('true'));
    expect(within(person(1)).getByLabelText<HTMLInputElement>(/^Last name/).value).toBe('Keepme');
    expect(within(person(1)).getByLabelText<HTMLInputElement>(/^Employee registration/).value).toBe('E-7777');
    expect(within(person(2)).getByLabelText<HTMLInputElement>(/^Last name/).value).toBe('Smith');
    expect(screen.getByRole('status').textContent).toContain('1 record from the JSON was added to the new hires form, after the 1 already in it.');
  });

  it('names what is wrong with pasted JSON and loads nothing', async () => {
    renderScreen(<SendRecordsScreen />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: 'JSON file' }));
    await user.click(screen.getByRole('radio', { name: 'Receipts' }));
    fireEvent.change(screen.getByLabelText('Or paste JSON here'), { target: { value: '[{"lastName":"Smith","amount":"x","bonus":1}]' } });
    await user.click(screen.getByRole('button', { name: 'Put the records in the form' }));
    expect(screen.getByRole('alert').textContent).toContain('Record 1 has unknown field(s): bonus');
  });
});

describe('SendRecordsScreen: a send whose outcome is unknown', () => {
  const FAILED = 'The service failed while taking the records: injected fault (trace id abc: give it to support if this goes on). '
    + 'The service may have imported the records: look at its imports, or ask your service provider, before sending them again, since a second send would import them twice.';
  const HISTORY_ADVICE = 'before sending them again';
  const receiptRow = (n: number) => ['Smith', 'Anna', '123-45-6789', `E-${n}`, '2026-03-15', '10'].join('\t');

  /** A bridge whose next answer to batches.send is chosen by the test. */
  function bridgeAnswering() {
    const bridge = createMemoryBridge();
    const answer = { next: 'fail' as 'fail' | 'refuse' | 'accept' | 'lost' };
    bridge.override('batches.send', (request): BridgeResponse<'batches.send'> => {
      const records = request.records.length;
      if (answer.next === 'fail') return { ok: false, problems: [{ message: FAILED, source: 'service' }], batch: { ...batch, kind: 'receipt', records, state: 'unknown' } };
      if (answer.next === 'refuse') {
        return { ok: false, problems: [{ index: 0, field: 'ssn', message: 'is not a known SSN', source: 'service' }], batch: { ...batch, kind: 'receipt', records, state: 'failed' } };
      }
      if (answer.next === 'lost') throw new BridgeError({ name: 'BridgeTransportError', code: 'internal', message: 'The connection to the app broke before its answer came.' });
      return { ok: true, importId: IMPORT_ID, records, receivedAt: '2026-11-22T10:00:00Z', batch: { ...batch, kind: 'receipt', records } };
    });
    return { bridge, answer };
  }

  async function sendOneReceiptThatFails(user: ReturnType<typeof userEvent.setup>) {
    await user.click(screen.getByRole('tab', { name: 'Receipts' }));
    const form = screen.getByRole('form', { name: 'Receipts' });
    within(form).getByRole('textbox', { name: 'Last name Receipt 1' }).focus();
    await user.paste(`${receiptRow(1)}\n`);
    await user.click(within(form).getByRole('button', { name: 'Send 1 receipt' }));
    await within(form).findByText(FAILED);
    return form;
  }

  /** The text of the warning about the failed batch, '' when none is shown. */
  const warning = (form: HTMLElement) => within(form).queryAllByRole('alert').find((a) => a.textContent?.includes(FAILED))?.textContent ?? '';

  it('keeps its warning while its records can be sent again: rows added, pasted, loaded or removed, a Send the check stopped, another screen', async () => {
    const { bridge } = bridgeAnswering();
    renderScreen(<ScreenSwitch />, bridge);
    const user = userEvent.setup();
    const form = await sendOneReceiptThatFails(user);
    expect(warning(form)).toContain('This batch may have reached the service');
    expect(warning(form)).toContain(HISTORY_ADVICE);

    // Rows pasted into the box, pasted into a cell, loaded from JSON, and added by the button.
    await user.click(within(form).getByRole('button', { name: 'Paste from a spreadsheet' }));
    fireEvent.change(within(form).getByLabelText('Rows copied from a spreadsheet'), { target: { value: receiptRow(2) } });
    await user.click(within(form).getByRole('button', { name: 'Add these rows' }));
    expect(within(form).getByRole('status').textContent).toBe('1 row added. Check it, then send.');
    expect(warning(form)).toContain(HISTORY_ADVICE);
    within(form).getByRole('textbox', { name: 'Last name Receipt 2' }).focus();
    await user.paste(`${receiptRow(3)}\n${receiptRow(4)}`);
    expect(within(form).getByRole<HTMLInputElement>('textbox', { name: 'Employee registration Receipt 4' }).value).toBe('E-4');
    expect(warning(form)).toContain(HISTORY_ADVICE);
    await user.click(screen.getByRole('tab', { name: 'JSON file' }));
    await user.click(screen.getByRole('radio', { name: 'Receipts' }));
    fireEvent.change(screen.getByLabelText('Or paste JSON here'), { target: { value: JSON.stringify([{ lastName: 'Lee', firstName: 'Bo', ssn: '987-65-4321', employeeRegistration: 'E-5', paymentDate: '2026-03-16', amount: 20 }]) } });
    await user.click(screen.getByRole('button', { name: 'Put the records in the form' }));
    await waitFor(() => expect(screen.getByRole('tab', { name: 'Receipts' }).getAttribute('aria-selected')).toBe('true'));
    expect(warning(form)).toContain(HISTORY_ADVICE);
    await user.click(within(form).getByRole('button', { name: 'Add a row' }));
    await user.click(within(form).getByRole('button', { name: 'Remove receipt 5' }));
    expect(warning(form)).toContain(HISTORY_ADVICE);

    // A Send the check stops sends nothing: the batch sent before may still be on the service.
    fireEvent.change(within(form).getByRole('textbox', { name: 'Last name Receipt 5' }), { target: { value: 'Kim' } });
    await user.click(within(form).getByRole('button', { name: 'Send 5 receipts' }));
    await within(form).findByText('Nothing was sent yet');
    expect(warning(form)).toContain(HISTORY_ADVICE);

    await leaveAndComeBack(user);
    const back = screen.getByRole('form', { name: 'Receipts' });
    expect(warning(back)).toContain(HISTORY_ADVICE);

    // Start over throws the records away, and the warning about sending them again with them.
    await user.click(within(back).getByRole('button', { name: 'Start over' }));
    expect(warning(back)).toBe('');
    expect(within(back).queryByText(new RegExp(HISTORY_ADVICE))).toBeNull();
  });

  it('keeps it above a later refusal, names an answer that never came the same way, and lets it go once a send is received', async () => {
    const { bridge, answer } = bridgeAnswering();
    renderScreen(<SendRecordsScreen />, bridge);
    const user = userEvent.setup();
    const form = await sendOneReceiptThatFails(user);

    // Sent again and refused: nothing of this batch was imported, but the first one may still be on the service.
    answer.next = 'refuse';
    await user.click(within(form).getByRole('button', { name: 'Send 1 receipt' }));
    await within(form).findByText('The service refused the batch');
    expect(warning(form)).toContain('An earlier batch may have reached the service');
    expect(warning(form)).toContain(HISTORY_ADVICE);

    // No answer at all (the app's connection broke): the service may have the batch, so the advice is the same.
    answer.next = 'lost';
    await user.click(within(form).getByRole('button', { name: 'Send 1 receipt' }));
    const lost = await within(form).findByText('The connection to the app broke before its answer came.');
    expect(lost.closest('[role="alert"]')?.textContent).toContain(HISTORY_ADVICE);
    expect(warning(form)).toBe('');

    // Received: the form empties, and with it the records the advice was about.
    answer.next = 'accept';
    await user.click(within(form).getByRole('button', { name: 'Send 1 receipt' }));
    await within(form).findByText(/The service received 1 record/);
    expect(within(form).queryByText(new RegExp(HISTORY_ADVICE))).toBeNull();
    expect(within(form).queryByText(/may have reached the service/)).toBeNull();
  });
});
