/** Words of the app's frame: title, navigation, set-up gate, notices. */
import { PROFILE_TITLES } from '../../shared/settings.schema';

export const appText = {
  title: 'Payroll Uploader',
  skipToContent: 'Skip to content',
  navigationLabel: 'Screens',
  openNavigation: 'Open the list of screens',
  closeNavigation: 'Close the list of screens',
  screens: {
    queue: 'Queue',
    history: 'History',
    'send-records': 'Send records',
    deliveries: 'Deliveries',
    settings: 'Settings',
    'local-server': 'Local server',
  },
  environment: (name: string) => `Environment: ${name}`,
  profileNames: PROFILE_TITLES,
  loading: 'Opening Payroll Uploader…',
  cannotReachCore: 'The app cannot reach its background service.',
  cannotReachCoreHelp: 'Close the app and open it again. If this keeps happening, tell your IT contact.',
  tryAgain: 'Try again',
  engineLost: 'The app has lost its background service: what you see may be out of date.',
  engineLostHelp: 'Files are not watched or uploaded while it is gone, even if a screen still says Watching. '
    + 'It reconnects by itself once the service is back. If Payroll Uploader was stopped and started again, open it '
    + 'again (in a browser: the new address it printed, since this page stays signed out).',
  noticesLabel: 'Messages',
  /** `summary`: the message's opening words (noticeSummary), so each Dismiss button says which message it takes away. */
  dismissNotice: (summary: string) => `Dismiss: ${summary}`,
  dismissAllNotices: 'Dismiss all messages',
  hiddenNotices: (count: number) => `${count} earlier ${count === 1 ? 'message' : 'messages'}: dismiss these to see ${count === 1 ? 'it' : 'them'}.`,
  leftOutNotices: (count: number, kept: number) =>
    `${count} older ${count === 1 ? 'message was' : 'messages were'} left out: only the newest ${kept} are kept. History lists every refused file.`,
};
