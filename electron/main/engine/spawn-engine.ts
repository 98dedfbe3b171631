/** Starts the engine in an Electron utilityProcess: a Node process of its own, off the window's thread. */
import { utilityProcess } from 'electron';
import type { EngineProcess } from './engine-client';

export type SpawnEngineOptions = { enginePath: string; dataDir: string };

export function spawnEngine(options: SpawnEngineOptions): EngineProcess {
  const child = utilityProcess.fork(options.enginePath, ['--data-dir', options.dataDir], {
    serviceName: 'Payroll Uploader engine',
    stdio: 'inherit',
  });
  return {
    postMessage: (message) => child.postMessage(message),
    onMessage: (listener) => void child.on('message', listener),
    onExit: (listener) => void child.on('exit', listener),
    kill: () => void child.kill(),
  };
}
