/**
 * A real, private, unlocked gnome-keyring for tests: its own temp HOME and its own D-Bus session bus, so it
 * works where no desktop session exists (CI runs as root without D-Bus) and never touches the user's keyring.
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export type KeyringEnv = {
  HOME: string;
  DBUS_SESSION_BUS_ADDRESS: string;
  XDG_RUNTIME_DIR: string;
  XDG_DATA_HOME: string;
  XDG_CONFIG_HOME: string;
  XDG_CACHE_HOME: string;
};

export type KeyringHandle = {
  /** Set these in process.env of the test worker (before the first keychain call) and pass them to children. */
  env: KeyringEnv;
  /**
   * Locks the default (login) keyring through the Secret Service, as a login that did not unlock it leaves it. No
   * prompt can be shown here, so a later unlock request is dismissed, as a clerk's Cancel would.
   */
  lock(): Promise<void>;
  /** Stops both daemons and removes the temp HOME. */
  stop(): Promise<void>;
};

const READY_WAIT_MS = 20_000;

// No <servicedir>: a call made before our daemon owns the name fails instead of auto-starting a locked keyring.
const busConfig = (socket: string) => `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=${socket}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`;

function startFailure(what: string, pkg: string, error: unknown): Error {
  const code = (error as NodeJS.ErrnoException).code;
  return new Error(code === 'ENOENT' ? `${what} is not installed (apt-get install ${pkg})` : `${what} failed to start: ${String(error)}`);
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const outcome = await Promise.race([exited.then(() => 'exited' as const), sleep(5000).then(() => 'slow' as const)]);
  if (outcome === 'slow') {
    child.kill('SIGKILL');
    await exited;
  }
}

async function readAddress(bus: ChildProcess): Promise<string> {
  let output = '';
  let errors = '';
  bus.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  return new Promise((resolve, reject) => {
    bus.once('error', (error) => reject(startFailure('dbus-daemon', 'dbus', error)));
    bus.once('exit', (code) => reject(new Error(`dbus-daemon exited (${String(code)}): ${errors.trim()}`)));
    bus.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n')[0];
      if (output.includes('\n') && line) resolve(line.trim());
    });
  });
}

function dbusSend(env: KeyringEnv, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('dbus-send', [`--bus=${env.DBUS_SESSION_BUS_ADDRESS}`, '--print-reply', ...args], (error, stdout, stderr) => {
      if (error) reject(new Error(`dbus-send ${args.join(' ')} failed: ${stderr.trim() || error.message}`));
      else resolve(stdout);
    });
  });
}

async function lockDefault(env: KeyringEnv): Promise<void> {
  const service = ['--dest=org.freedesktop.secrets', '/org/freedesktop/secrets'];
  const alias = await dbusSend(env, [...service, 'org.freedesktop.Secret.Service.ReadAlias', 'string:default']);
  const collection = /object path "([^"]+)"/.exec(alias)?.[1];
  if (!collection || collection === '/') throw new Error(`the test keyring has no default collection: ${alias.trim()}`);
  await dbusSend(env, [...service, 'org.freedesktop.Secret.Service.Lock', `array:objpath:${collection}`]);
}

function secretsOwned(env: KeyringEnv): Promise<boolean> {
  const args = [
    `--bus=${env.DBUS_SESSION_BUS_ADDRESS}`, '--print-reply', '--dest=org.freedesktop.DBus', '/org/freedesktop/DBus',
    'org.freedesktop.DBus.NameHasOwner', 'string:org.freedesktop.secrets',
  ];
  return new Promise((resolve, reject) => {
    execFile('dbus-send', args, (error, stdout) => {
      if (error && (error as NodeJS.ErrnoException).code === 'ENOENT') reject(startFailure('dbus-send', 'dbus-bin', error));
      else resolve(!error && stdout.includes('boolean true'));
    });
  });
}

async function waitForSecrets(env: KeyringEnv, keyring: ChildProcess, stderr: () => string): Promise<void> {
  const deadline = Date.now() + READY_WAIT_MS;
  while (!(await secretsOwned(env))) {
    if (keyring.exitCode !== null || keyring.signalCode !== null) {
      throw new Error(`gnome-keyring-daemon exited before it was ready: ${stderr().trim()}`);
    }
    if (Date.now() > deadline) throw new Error(`gnome-keyring-daemon did not take the Secret Service name: ${stderr().trim()}`);
    await sleep(50);
  }
}

/** Starts a private session bus and an unlocked gnome-keyring (Secret Service) on it. */
export async function startKeyring(): Promise<KeyringHandle> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'keyring-'));
  const env: KeyringEnv = {
    HOME: home,
    DBUS_SESSION_BUS_ADDRESS: '',
    XDG_RUNTIME_DIR: path.join(home, 'run'),
    XDG_DATA_HOME: path.join(home, 'data'),
    XDG_CONFIG_HOME: path.join(home, 'config'),
    XDG_CACHE_HOME: path.join(home, 'cache'),
  };
  const children: ChildProcess[] = [];
  const stop = async () => {
    for (const child of children.reverse()) await stopChild(child);
    await rm(home, { recursive: true, force: true });
  };
  try {
    for (const dir of [env.XDG_RUNTIME_DIR, env.XDG_DATA_HOME, env.XDG_CONFIG_HOME, env.XDG_CACHE_HOME]) await mkdir(dir);
    await chmod(env.XDG_RUNTIME_DIR, 0o700);
    const configFile = path.join(home, 'bus.conf');
    await writeFile(configFile, busConfig(path.join(env.XDG_RUNTIME_DIR, 'bus')));

    const childEnv = { ...process.env, ...env };
    const bus = spawn('dbus-daemon', [`--config-file=${configFile}`, '--nofork', '--print-address=1'], {
      env: childEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(bus);
    env.DBUS_SESSION_BUS_ADDRESS = await readAddress(bus);
    childEnv.DBUS_SESSION_BUS_ADDRESS = env.DBUS_SESSION_BUS_ADDRESS;

    let keyringErrors = '';
    const keyring = spawn('gnome-keyring-daemon', ['--foreground', '--unlock', '--components=secrets'], {
      env: childEnv,
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    children.push(keyring);
    const spawnFailed = new Promise<never>((_, reject) =>
      keyring.once('error', (error) => reject(startFailure('gnome-keyring-daemon', 'gnome-keyring', error))),
    );
    keyring.stderr?.on('data', (chunk: Buffer) => (keyringErrors += chunk.toString()));
    // The login keyring is created (first run) or unlocked with this password, read up to end of input.
    keyring.stdin?.end('test-keyring-password');
    await Promise.race([waitForSecrets(env, keyring, () => keyringErrors), spawnFailed]);
    return { env, lock: () => lockDefault(env), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
