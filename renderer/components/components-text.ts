/** Words of the shared components. */
export const componentsText = {
  copy: {
    copied: 'Copied',
    /** Said beside the button when the clipboard refused the text (a browser or window that does not allow it). */
    notCopied: 'Not copied: the clipboard could not be written here. Select the text and press Ctrl+C to copy it.',
  },
  /**
   * A service (an environment with its address, and the client files and batches go as), named the same way on every
   * screen: the Queue for a file that waits for it, History for the one that holds a file or got a batch.
   */
  service: {
    builtIn: 'the test server built into this app',
    named: (environment: string, address: string, clientId?: string) =>
      `${environment} (${address})${clientId ? ` as client ${clientId}` : ''}`,
  },
  /** Census and receipt fields by their name in the records and the CSV template, as the forms label them. */
  fieldLabels: {
    lastName: 'Last name',
    firstName: 'First name',
    employeeRegistration: 'Employee registration',
    hireDate: 'Hire date',
    employeeStatus: 'Employee status',
    eligibleForBenefits: 'Eligible for benefits',
    payCycle: 'Pay cycle',
    periodsPerYear: 'Pay periods per year',
    grossAnnualSalary: 'Gross annual salary',
    salaryPerPeriod: 'Salary per pay period',
    standardHours: 'Standard hours per week',
    hourlyRate: 'Hourly rate',
    timeType: 'Full or part time',
    payrollGroup: 'Payroll group',
    payrollArea: 'Payroll area',
    personnelSubArea: 'Personnel subarea',
    ssn: 'SSN',
    paymentDate: 'Payment date',
    amount: 'Amount',
  },
  problems: {
    line: 'Line',
    field: 'Field',
    message: 'Problem',
    wholeFile: 'whole file',
    record: 'Record',
    shownOf: (shown: number, total: number) => `Showing the first ${shown} of ${total} problems.`,
  },
  errors: {
    title: 'Something went wrong',
    // No hint for network_error: the core says what to do in its words, whose remedy depends on the cause ("Nothing
    // answers at …: check the base URL, and that the service is running"), and a general "check the network
    // connection" beside them sent the clerk the wrong way.
    hints: {
      not_configured: 'This environment is not set up yet: add its address and credentials in Settings.',
      keychain_unavailable: 'The system keychain cannot be used, so credentials cannot be saved or read.',
      unauthorized: 'The app refused the request. Close the app and open it again.',
      internal: 'The app ran into a problem. Try again; if it keeps happening, tell your IT contact.',
    } as Partial<Record<string, string>>,
  },
  /** The eye button of a secret field, named after what a press does now. */
  secret: {
    show: 'Show secret',
    hide: 'Hide secret',
  },
  outcome: {
    uploaded: 'Uploaded',
    rejected: 'Refused',
    duplicate: 'Duplicate',
    sent: 'Sent',
    failed: 'Failed',
    sending: 'Sending',
    unknown: 'Outcome unknown',
  },
};
