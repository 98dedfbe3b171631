/** Every word of the Queue screen. */
import { formatNumber } from '../../components/format';

export const queueText = {
  title: 'Queue',
  description: 'Files found in the watched folder and where each one is on its way to the service.',
  folder: {
    label: 'Watched folder',
    none: 'No folder chosen yet.',
    noneHelp: 'Choose the folder your payroll system saves its exports to, in Settings.',
    openSettings: 'Open Settings',
    states: { watching: 'Watching', paused: 'Paused', missing: 'Folder missing', unreadable: 'No access', stopped: 'Not watching' },
    /** Said to a screen reader when the state changes. */
    nowState: (state: string) => `Watched folder: ${state}`,
    help: {
      watching: 'New files saved in this folder are uploaded on their own.',
      paused: 'Paused: files already on their way finish, new ones wait until you resume.',
      missing: 'The folder cannot be found. Check that the network drive is connected; the app keeps looking and carries on by itself when it is back.',
      unreadable: 'Your user account may not open this folder, so no file in it can be found. Ask for read access to it, or choose another folder in Settings; the app carries on by itself once it can read it.',
      stopped: 'The folder is not being watched. Start watching to upload new files.',
    },
    /**
     * While files are held for a problem only the clerk (or the service provider) can end, as the core says with the
     * folder's state (it holds them): the header must not promise uploads meanwhile. `help` as the state's help, with
     * no promise of an upload in it; then what holds every file and where to put it right, pointing to the core's
     * notice of it (`message`) while that is shown, and standing alone once the clerk dismissed it (`alone`).
     */
    held: {
      help: {
        watching: 'New files saved in this folder are picked up and checked, then wait in the queue.',
        paused: 'Paused: new files saved in this folder wait until you resume.',
        stopped: 'The folder is not being watched: start watching to pick up new files.',
      },
      credentials: {
        message: 'No file is uploaded until the service accepts the client ID and secret: check them in Settings. '
          + 'The message above says what the service answered and what to change; the files then go on their own.',
        alone: 'No file is uploaded until the service accepts the client ID and secret: check them in Settings. '
          + 'Once they are right, the files go on their own.',
      },
      scope: {
        message: 'No file is uploaded until the service allows this client to upload files: the message above says what '
          + 'to ask your service provider for, and what to do then.',
        alone: 'No file is uploaded until the service allows this client to upload files: ask your service provider to '
          + 'give it the permission to upload files, then press Retry now on a file in the queue.',
      },
    },
    noAddress: (environment: string) => `No service address is set for ${environment}, so files saved in this folder `
      + `are not picked up. Set it in Settings (${environment}, Base URL).`,
    builtInServerStopped: 'The test server built into this app is stopped, so files saved in this folder are not picked '
      + 'up: the Local test server environment sends them only there. Start it on the Local server screen, or choose '
      + 'another environment in Settings.',
    openLocalServer: 'Open Local server',
    pause: 'Pause',
    resume: 'Resume',
    start: 'Start watching',
    pauseFailed: 'Pausing did not work',
    resumeFailed: 'Watching did not resume',
    startFailed: 'Watching did not start',
  },
  listLabel: 'Files in the queue',
  count: (n: number) => (n === 1 ? '1 file in the queue' : `${formatNumber(n)} files in the queue`),
  empty: {
    title: 'Nothing waiting',
    body: 'Every file found so far has been dealt with. Save an export into the watched folder and it appears here; finished files are listed in History.',
  },
  /**
   * Empty while the folder is not watched (or none is chosen yet): a file saved there now does not appear, so this
   * must not say it would.
   */
  emptyNotWatched: {
    title: 'Nothing in the queue',
    body: 'Files saved in the watched folder are picked up only while it is watched: see above why it is not and what to do. Finished files are listed in History.',
  },
  /**
   * Files found in the watched folder that could not be taken up (claimed or journaled): they wait there, not in the
   * queue, so an empty queue must not say every file was dealt with. A message above (the core's notice) says why.
   */
  untaken: {
    title: (n: number) => (n === 1 ? '1 file waits in the folder' : `${formatNumber(n)} files wait in the folder`),
    body: (n: number) => (n === 1
      ? 'It cannot be taken up yet: the message above says why and what to do. It stays in the watched folder, where nothing is lost, and is taken up by itself once that is fixed.'
      : 'They cannot be taken up yet: the message above says why and what to do. They stay in the watched folder, where nothing is lost, and are taken up by themselves once that is fixed.'),
    /** Beside files that are in the queue. */
    also: (n: number) => (n === 1
      ? '1 more file waits in the folder: it cannot be taken up yet, see the message above.'
      : `${formatNumber(n)} more files wait in the folder: they cannot be taken up yet, see the message above.`),
  },
  steps: {
    found: 'Found',
    checking: 'Checking',
    uploading: 'Uploading',
    waiting: 'Waiting to retry',
    filing: 'Filing away',
  },
  /** A waiting file with no next try set: it waits for something to happen (a census file to go first, the clerk). */
  waitingUntimed: 'Waiting',
  stepHelp: {
    found: 'Waiting its turn.',
    checking: 'Reading the file and checking its rows.',
    granting: 'Asking the service where to upload it.',
    uploading: 'Sending the file to the service.',
    filing: 'Moving the file to its folder.',
  },
  progress: (done: string, total: string) => `${done} of ${total}`,
  speed: (speed: string) => speed,
  timeLeft: (left: string) => `about ${left} left`,
  progressLabel: (name: string) => `Upload of ${name}`,
  checkingLabel: (name: string) => `Checking ${name}`,
  nextTry: (time: string) => `Next try at ${time}.`,
  attempts: (n: number) => (n === 1 ? '1 try so far.' : `${n} tries so far.`),
  waitsForBadge: 'Waiting for its service',
  /** `service` as serviceName (renderer/components/service-name.ts) names it. */
  waitsForBuiltIn: (service: string) => `Queued for ${service}, and sent only there. It is sent once that server runs `
    + 'and the Local test server is the active environment: start it on the Local server screen.',
  waitsFor: (service: string, environment: string, clientId?: string) => (clientId
    ? `Queued for ${service}, and sent only there, as that client. `
      + `It is sent once ${environment} is the active environment, with that address and client ID ${clientId}, in Settings.`
    : `Queued for ${service}, and sent only there. `
      + `It is sent once ${environment} is the active environment again, with that address, in Settings.`),
  retryNow: 'Retry now',
  /** The visible label first (WCAG 2.5.3): "click Retry now" said to speech input must reach the button. */
  retryNowLabel: (name: string) => `Retry now: ${name}`,
  retryFailed: (name: string) => `Retry now did not work for ${name}`,
  /** A waiting file's row shows two lines of why it waits; its drawer shows all of it. */
  details: {
    button: 'Details',
    label: (name: string) => `Details: ${name}`,
    close: 'Close',
    step: 'Step',
    why: 'Why it waits',
    path: 'Found as',
    size: 'Size',
    found: 'Found',
    gone: (name: string) => `${name} is no longer in the queue. History shows how it ended.`,
  },
  dismiss: 'Dismiss',
  loadError: 'The queue cannot be shown',
  /** A refresh that failed while the list from before is still on screen: the list stays, and may be behind. */
  refreshError: 'The queue could not be brought up to date: the list below is as it was when last read',
};
