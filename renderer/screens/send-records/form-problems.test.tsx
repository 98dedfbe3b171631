// @vitest-environment happy-dom
import '../../test-kit/setup-dom';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { announced, forgetAnnouncements, nestedLiveRegions, recordAnnouncements } from '../../test-kit/announcements';
import { createMemoryBridge } from '../../test-kit/memory-bridge';
import { renderScreen } from '../../test-kit/render-screen';
import { SendRecordsScreen } from './send-records-screen';

/**
 * What a screen reader says of the list of what stopped a send: the list once when a Send stops, not again at each
 * change while the clerk fixes the fields.
 */
const person = (n: number) => screen.getByRole('group', { name: `Person ${n}` });
const type = (label: RegExp, value: string) => fireEvent.change(within(person(1)).getByLabelText(label), { target: { value } });
const problems = () => screen.queryByRole('region', { name: /^(Nothing was sent yet|The service refused the batch)$/ });

describe('The list of what stopped a send, for a screen reader', () => {
  let stop: () => void;
  beforeEach(() => { stop = recordAnnouncements(); });
  afterEach(() => stop());

  it('is said once when the check stops a Send, not at each change as the clerk fixes the fields, and again at the next Send', async () => {
    renderScreen(<SendRecordsScreen />);
    const user = userEvent.setup();
    type(/^Last name/, 'Smith');
    type(/^Employee registration/, 'E-5');
    forgetAnnouncements();
    await user.click(screen.getByRole('button', { name: 'Send 1 person' }));
    await waitFor(() => expect(problems()?.textContent).toContain('Person 1: Hire date is required'));
    await waitFor(() => expect(announced()).toHaveLength(1));
    expect(announced()[0]).toBe('Nothing was sent yet. Fix the fields marked in red, then send again. Person 1: First name is required. '
      + 'Person 1: Hire date is required. Person 1: Employee status is required.');

    // The clerk fixes one field after another: the list shrinks, nothing is said.
    forgetAnnouncements();
    type(/^First name/, 'Anna');
    await waitFor(() => expect(problems()?.textContent).not.toContain('First name'));
    type(/^Hire date/, '2026-03-15');
    await waitFor(() => expect(problems()?.textContent).not.toContain('Hire date'));
    type(/^Employee registration/, '');
    await waitFor(() => expect(problems()?.textContent).toContain('Employee registration is required'));
    type(/^Employee registration/, 'E-512');
    await waitFor(() => expect(problems()?.textContent).not.toContain('Employee registration'));
    expect(announced()).toEqual([]);

    // Send again, stopped again: said again, as it is now.
    await user.click(screen.getByRole('button', { name: 'Send 1 person' }));
    await waitFor(() => expect(announced()).toEqual([
      'Nothing was sent yet. Fix the fields marked in red, then send again. Person 1: Employee status is required.',
    ]));
    expect(nestedLiveRegions()).toEqual([]);
  });

  it('is said once when records loaded from JSON have problems, and again when a Send stops', async () => {
    renderScreen(<SendRecordsScreen />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: 'JSON file' }));
    fireEvent.change(screen.getByLabelText('Or paste JSON here'), { target: { value: JSON.stringify([{ lastName: 'Smith', employeeRegistration: 'E-1' }]) } });
    forgetAnnouncements();
    await user.click(screen.getByRole('button', { name: 'Put the records in the form' }));
    const check = () => screen.queryByRole('region', { name: 'Some fields need fixing before sending' });
    await waitFor(() => expect(check()?.textContent).toContain('Person 1: Hire date is required'));
    await waitFor(() => expect(announced().filter((text) => text.startsWith('Some fields'))).toEqual([
      'Some fields need fixing before sending. Fix the fields marked in red, then send. Person 1: First name is required. '
      + 'Person 1: Hire date is required. Person 1: Employee status is required.',
    ]));

    // Sent as it is: stopped by the check, said again as what it now is.
    forgetAnnouncements();
    type(/^First name/, 'Anna');
    await user.click(screen.getByRole('button', { name: 'Send 1 person' }));
    await waitFor(() => expect(announced()).toEqual([
      'Nothing was sent yet. Fix the fields marked in red, then send again. Person 1: Hire date is required. Person 1: Employee status is required.',
    ]));
  });

  it('is said once when the service refuses the batch', async () => {
    const bridge = createMemoryBridge();
    bridge.override('batches.send', () => ({
      ok: false, problems: [{ index: 0, field: 'employeeRegistration', message: '[0].employeeRegistration: is not known', source: 'service' }],
    }));
    renderScreen(<SendRecordsScreen />, bridge);
    const user = userEvent.setup();
    type(/^Last name/, 'Smith');
    type(/^First name/, 'Anna');
    type(/^Employee registration/, 'E-5');
    type(/^Hire date/, '2026-03-15');
    await user.selectOptions(within(person(1)).getByLabelText(/^Employee status/), 'Active');
    forgetAnnouncements();
    await user.click(screen.getByRole('button', { name: 'Send 1 person' }));
    await waitFor(() => expect(problems()?.textContent).toContain('The service refused the batch'));
    await waitFor(() => expect(announced()).toHaveLength(1));
    expect(announced()[0]).toMatch(/^The service refused the batch\. Nothing from this batch was imported\. .*Person 1: Employee registration is not known\.$/);

    forgetAnnouncements();
    type(/^Employee registration/, 'E-6');
    await waitFor(() => expect(problems()).toBeNull());
    expect(announced()).toEqual([]);
  });
});
