import { contextBridge, ipcRenderer } from 'electron';
import { createBridge } from './bridge';

// Sandboxed preload (bundled to one CommonJS file): exposes window.station and nothing else.
contextBridge.exposeInMainWorld(
  'station',
  createBridge((channel, ...args) => ipcRenderer.invoke(channel, ...args)),
);
