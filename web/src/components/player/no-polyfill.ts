// Stands in for `rvfc-polyfill` (see vite.config.ts): HTMLVideoElement.requestVideoFrameCallback is native everywhere
// the console runs.
export {};
