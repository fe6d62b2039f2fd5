import { useEffect, useState, type RefObject } from 'react';
import type { PlaybackFont } from '@shoko-ts/contract';

/**
 * Draws an ASS/SSA subtitle over the video with libass (JASSUB: WebAssembly in a worker, onto a canvas laid over the
 * `<video>`), with the file's attached fonts. Loaded only when a file has such a subtitle; replaced when the subtitle
 * changes and destroyed with the page.
 */
export function useAssSubtitles(videoRef: RefObject<HTMLVideoElement | null>, url: string | null, fonts: readonly PlaybackFont[]) {
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const video = videoRef.current;
    if (!video || !url) return;
    let disposed = false;
    let renderer: import('jassub').default | null = null;
    import('jassub')
      .then(({ default: JASSUB }) => {
        if (disposed) return;
        renderer = new JASSUB({ video, subUrl: url, fonts: fonts.map((font) => font.Url) });
        renderer._canvas.dataset.testid = 'ass-subtitles';
        return renderer.ready;
      })
      .then(() => {
        if (disposed) return;
        setError(null);
        // JASSUB draws when the video presents a frame; a paused picture gets its subtitles now.
        if (video.paused && video.videoWidth && renderer) {
          void renderer.manualRender({
            mediaTime: video.currentTime,
            width: video.videoWidth,
            height: video.videoHeight,
            expectedDisplayTime: performance.now(),
          });
        }
      })
      .catch((failure: Error) => !disposed && setError(`Subtitles could not be drawn: ${failure.message}`));
    return () => {
      disposed = true;
      void renderer?.destroy();
    };
  }, [videoRef, url, fonts]);

  return error;
}
