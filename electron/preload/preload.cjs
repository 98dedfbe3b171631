// The sandboxed preload: exposes only the bridge API (filled in with the UI) and nothing of Node.
const { contextBridge } = require('electron');

contextBridge.exposeInMainWorld('payroll', Object.freeze({ version: '0.1.0' }));
