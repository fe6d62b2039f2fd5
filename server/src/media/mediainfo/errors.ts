/** Why reading media info failed. */
export type MediaInfoFailure =
  | 'not-found' // no such file
  | 'unreadable' // not a regular file, or reading it failed
  | 'not-media' // MediaInfoLib found no audio or video in it
  | 'timeout' // the analysis ran past its time limit; its worker was stopped
  | 'crashed' // MediaInfoLib (WebAssembly) or its worker failed; the worker is replaced
  | 'closed'; // closeMediaInfo() was called before the analysis finished

export class MediaInfoError extends Error {
  override readonly name = 'MediaInfoError';

  constructor(
    readonly reason: MediaInfoFailure,
    readonly path: string,
    detail: string,
  ) {
    super(`Cannot read media info of ${path}: ${detail}`);
  }
}
