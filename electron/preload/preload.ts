/** The sandboxed preload: exposes window.payroll (the bridge contract) and nothing else. Bundled to one CJS file. */
import { contextBridge, ipcRenderer } from 'electron';
import { createBridgeClient } from './bridge-client';

contextBridge.exposeInMainWorld('payroll', createBridgeClient(ipcRenderer));
