/** The `payroll-uploader` command: dispatches to its subcommands and turns failures into exit codes. */
import { CREDENTIALS_USAGE, credentialsCommand } from './credentials-command';
import { DELIVERIES_USAGE, deliveriesCommand } from './deliveries-command';
import { SEND_USAGE, sendCommand } from './send-command';
import { serverCommand } from './server-command';
import { WATCH_USAGE, watchCommand } from './watch-command';
import { SERVER_USAGE } from './server-flags';
import { UI_USAGE, uiCommand } from './ui-command';
import { PromptCancelled } from './secret-input';
import { EXIT, UsageError } from './usage-error';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LockedError } from '../lib/process-lock';

type Command = { run(args: string[]): Promise<number>; usage: string; summary: string };

const COMMANDS: Record<string, Command> = {
  server: { run: serverCommand, usage: SERVER_USAGE, summary: 'run the local stand-in of the service on 127.0.0.1' },
  watch: { run: watchCommand, usage: WATCH_USAGE, summary: 'watch a folder and upload every finished CSV export' },
  send: { run: sendCommand, usage: SEND_USAGE, summary: 'send a JSON file of census or receipt records' },
  deliveries: { run: deliveriesCommand, usage: DELIVERIES_USAGE, summary: 'list the webhook delivery attempts (audit)' },
  credentials: { run: credentialsCommand, usage: CREDENTIALS_USAGE, summary: 'store, delete or check the client credentials (OS keychain)' },
  ui: { run: uiCommand, usage: UI_USAGE, summary: 'open the app in a browser on this machine (127.0.0.1 only)' },
};

function usage(): string {
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(12)} ${c.summary}`);
  return `Usage: payroll-uploader <command> [flags]   (or --version)\n\nCommands:\n${lines.join('\n')}\n\nRun payroll-uploader <command> --help for its flags.`;
}

/** The package's version, read once from package.json beside the sources. */
function version(): string {
  const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8')) as { version?: string };
  return pkg.version ?? 'unknown';
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === '--version' || name === '-v' || name === 'version') {
    process.stdout.write(`payroll-uploader ${version()}\n`);
    return EXIT.ok;
  }
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${usage()}\n`);
    return name ? EXIT.ok : EXIT.usage;
  }
  const command = COMMANDS[name];
  if (!command) {
    process.stderr.write(`payroll-uploader: unknown command "${name}"\n\n${usage()}\n`);
    return EXIT.usage;
  }
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`${command.usage}\n`);
    return EXIT.ok;
  }
  try {
    return await command.run(args);
  } catch (error) {
    if (error instanceof LockedError) {
      process.stderr.write(`payroll-uploader ${name}: ${error.message}\n`);
      return EXIT.busy;
    }
    if (error instanceof PromptCancelled) {
      process.stderr.write(`payroll-uploader ${name}: ${error.message}\n`);
      return error.interrupted ? EXIT.interrupted : EXIT.failure;
    }
    if (error instanceof UsageError) {
      process.stderr.write(`payroll-uploader ${name}: ${error.message}\n\n${command.usage}\n`);
      return EXIT.usage;
    }
    process.stderr.write(`payroll-uploader ${name}: ${(error as Error).message}\n`);
    return EXIT.failure;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: Error) => {
    process.stderr.write(`payroll-uploader: ${error.stack ?? error.message}\n`);
    process.exitCode = EXIT.failure;
  },
);
