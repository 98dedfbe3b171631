/** Words of the shared components. */
export const componentsText = {
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
    hints: {
      network_error: 'The service cannot be reached. Check the network connection, then try again.',
      not_configured: 'This environment is not set up yet: add its address and credentials in Settings.',
      keychain_unavailable: 'The system keychain cannot be used, so credentials cannot be saved or read.',
      unauthorized: 'The app refused the request. Close the app and open it again.',
      internal: 'The app ran into a problem. Try again; if it keeps happening, tell your IT contact.',
    } as Partial<Record<string, string>>,
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
