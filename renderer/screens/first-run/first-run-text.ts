/** Every word of the first-run set-up. */
export const firstRunText = {
  title: 'Welcome to Payroll Uploader',
  intro: 'Three short steps and your payroll exports are sent to the service by themselves.',
  stepsLabel: 'Set-up steps',
  steps: {
    environment: { label: 'Environment', description: 'Where files go' },
    credentials: { label: 'Credentials', description: 'Connect to the service' },
    folder: { label: 'Folder', description: 'Where exports are saved' },
  },
  /** Read before a step's name, not shown (the numbers are on screen). */
  stepNumber: (n: number, of: number) => `Step ${n} of ${of}: `,
  /** Read after a finished step's name, not shown (its tick is). */
  stepDone: ', done',
  environment: {
    heading: 'Choose the environment',
    question: 'Which service should your files go to?',
    help: 'Your service provider tells you which one to use. Start with the local test server or the sandbox to try things out.',
  },
  credentials: {
    heading: (name: string) => `Connect to ${name}`,
    help: 'Type the address, client ID and client secret your service provider gave you. The secret is kept in the system keychain, never in a file.',
    builtIn: 'Use the test server built into this app',
    builtInHelp: 'Starts a test service on this computer and fills in its address and credentials for you.',
    connected: 'Connected. You can go on to the last step.',
  },
  folder: {
    heading: 'Choose the watched folder',
    help: 'Pick the folder your payroll system saves its CSV exports to. Every finished file saved there is checked and uploaded; it is then moved to an uploaded, rejected or duplicates folder, never deleted.',
    save: 'Start watching this folder',
    missing: (folder: string, desktop: boolean) => `There is no folder at ${folder}. Check the path for a typing mistake`
      + `${desktop ? ' or choose the folder with Browse…' : ''}; if the folder is new, create it first (in the file manager), then start watching again.`,
  },
  back: 'Back',
  next: 'Next',
  later: 'Set up later',
  laterHelp: 'You can finish the set-up at any time in Settings.',
};
