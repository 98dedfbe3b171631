/**
 * A second `payroll-uploader ui` on a data folder another Payroll Uploader holds (another `ui` running the built-in
 * server, a `watch`) does not start and serve screens that call the built-in server stopped: it says another Payroll
 * Uploader holds the data folder, and what to do, and exits 3. Real `ui` and `watch` processes, a real local server.
 * Needs the built renderer (npm run build:renderer).
 */
import { rm } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { startCli, uploaderEnv, type RunningCli } from '../helpers/cli';
import { eventually, startTestServer, tempDir, type TestServer } from '../helpers/local-server';
import { startUiApp, type UiApp } from '../helpers/ui-app';

const HELD = /exited \(3\) before printing its address:\npayroll-uploader ui: another Payroll Uploader already holds the data folder (.+) \(its uploader, process (\d+) on .+: the desktop app, another `payroll-uploader ui` or a `payroll-uploader watch`\), so this one does not start: use the window or browser tab already open on it, or stop the other one first \(or give this one its own data folder with --data-dir\)\. Lock file: .+upload-queue\.lock\n$/;

describe('payroll-uploader ui on a data folder another Payroll Uploader holds', () => {
  let apps: UiApp[] = [];
  let clis: RunningCli[] = [];
  let servers: TestServer[] = [];
  let dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(apps.map((app) => app.stop()));
    for (const cli of clis) cli.child.kill('SIGTERM');
    await Promise.all(clis.map((cli) => cli.exited));
    await Promise.all(servers.map((server) => server.stop()));
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
    apps = [];
    clis = [];
    servers = [];
    dirs = [];
  });
  const folder = async (prefix: string) => {
    const dir = await tempDir(prefix);
    dirs.push(dir);
    return dir;
  };
  /** A second `ui` on `dataDir`: kept to be stopped if it starts after all. */
  const second = (dataDir: string) => startUiApp({ dataDir }).then((app) => {
    apps.push(app);
    return app;
  });

  it('beside another ui running the built-in server: says so and exits 3, not that the built-in server is stopped', async () => {
    const dataDir = await folder('payroll-ui-held-');
    const first = await startUiApp({ dataDir, localServer: true, settings: { watchedFolder: await folder('payroll-ui-watched-') } });
    apps.push(first);
    const refused = await second(dataDir).then(() => 'it started and served its screens', (error: Error) => error.message);
    expect(refused).toMatch(HELD);
    expect(HELD.exec(refused)?.[2]).toBe(String(first.child.pid));
    // The first goes on, its folder and server untouched.
    expect(first.child.exitCode).toBeNull();
  }, 90_000);

  it('beside a watch on the same data folder: the same', async () => {
    const server = await startTestServer();
    servers.push(server);
    const dataDir = await folder('payroll-ui-held-');
    const watch = startCli(['watch', await folder('payroll-ui-watched-'), '--base-url', server.url, '--env', 'local', '--json'], uploaderEnv(dataDir));
    clis.push(watch);
    await eventually(() => watch.events.find((e) => e.event === 'folder' && e.data.state === 'watching'), 30_000);
    const refused = await second(dataDir).then(() => 'it started and served its screens', (error: Error) => error.message);
    expect(refused).toMatch(HELD);
    expect(HELD.exec(refused)?.[2]).toBe(String(watch.child.pid));
  }, 90_000);
});
