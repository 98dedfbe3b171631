export { createFolderWatcher, type FolderWatcher, type FolderWatcherEvents, type FolderWatcherOptions, type StableFile } from './folder-watcher';
export { isCandidateName } from './candidate-name';
