export { createFolderWatcher, type FolderWatcher, type FolderWatcherEvents, type FolderWatcherOptions, type StableFile } from './folder-watcher';
export { isCandidateName } from './candidate-name';
export { identityOf } from './stable-file';
export { notRegular } from './stability-tracker';
export { UnreadableFileError } from './unreadable-file-error';
export { UnreadableFolderError, unreadableFolderMessage } from './unreadable-folder-error';
