/**
 * The engine's end of its channel to main: Electron's `process.parentPort` in a utilityProcess, Node's IPC
 * (`process.send`) when the engine runs as a plain child process (tests, and a headless check of the build).
 */
import type { EnginePort } from './engine-protocol';

// The shape of Electron's ParentPort that we use; the engine never imports electron.
type ParentPortLike = {
  on(event: 'message', listener: (event: { data: unknown }) => void): unknown;
  postMessage(message: unknown): void;
};

export function enginePortOf(proc: NodeJS.Process = process): EnginePort {
  const parentPort = (proc as NodeJS.Process & { parentPort?: ParentPortLike }).parentPort;
  if (parentPort) {
    return {
      postMessage: (message) => parentPort.postMessage(message),
      onMessage: (listener) => void parentPort.on('message', (event) => listener(event.data)),
    };
  }
  const send = proc.send?.bind(proc);
  if (send) {
    return {
      // After the parent went away there is nobody to tell.
      postMessage: (message) => {
        if (proc.connected) send(message);
      },
      onMessage: (listener) => void proc.on('message', listener),
    };
  }
  throw new Error('The engine must run as a utilityProcess or a Node child process with an IPC channel');
}
