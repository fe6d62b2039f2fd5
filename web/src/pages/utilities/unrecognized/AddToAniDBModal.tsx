import { useRef, useState } from 'react';
import { toast } from 'react-toastify';
import type { File } from '@shoko-ts/contract';
import { useRescanFiles } from '@/api/files';
import { Button } from '@/components/Button';
import { Modal } from '@/components/Modal';

const ANIDB_ADD_ANIME = 'https://anidb.net/anime/add';

/** `ed2k://|file|<name>|<size>|<ed2k>|/` of a file's first location, as AniDB takes them. */
export function ed2kLink(file: File): string {
  const name = (file.Locations[0]?.RelativePath ?? `file-${file.ID}`).split(/[\\/]/).at(-1);
  return `ed2k://|file|${name}|${file.Size}|${file.Hashes.ED2K}|/`;
}

/**
 * After AVDump: step 1 gives the files' ED2K links to add on AniDB (creating the anime there if it is new), step 2
 * rescans the files so this server picks up AniDB's new entries.
 */
export function AddToAniDBModal({ files, onClose }: { files: File[]; onClose: () => void }) {
  const [step, setStep] = useState<1 | 2>(1);
  const [copyFailed, setCopyFailed] = useState(false);
  const links = files.map(ed2kLink).join('\n');
  const linksRef = useRef<HTMLTextAreaElement>(null);
  const rescan = useRescanFiles();

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(links);
      toast.success('ED2K links copied!');
    } catch {
      // No clipboard (plain http, denied permission): select the text so Ctrl+C copies it.
      setCopyFailed(true);
      linksRef.current?.focus();
      linksRef.current?.select();
    }
  };

  return (
    <Modal
      open
      onClose={onClose}
      size="lg"
      title={`Add Series to AniDB — Step ${step} of 2`}
      footer={
        step === 1 ? (
          <>
            <Button variant="secondary" onClick={onClose}>
              Cancel
            </Button>
            <Button onClick={() => setStep(2)}>Next</Button>
          </>
        ) : (
          <>
            <Button variant="secondary" onClick={() => setStep(1)}>
              Back
            </Button>
            <Button
              busy={rescan.isPending}
              onClick={() =>
                rescan.mutate(
                  files.map((f) => f.ID),
                  {
                    onSuccess: () => {
                      toast.success(`Rescanning ${files.length} ${files.length === 1 ? 'file' : 'files'}.`);
                      onClose();
                    },
                  },
                )
              }
            >
              Rescan Files
            </Button>
          </>
        )
      }
    >
      {step === 1 ? (
        <>
          <p>
            AVDump has sent the details of {files.length === 1 ? 'this file' : `these ${files.length} files`} to AniDB. If AniDB does not
            know the anime yet, add it there first, then add the files to its episodes with these ED2K links.
          </p>
          <textarea
            ref={linksRef}
            readOnly
            aria-label="ED2K links"
            value={links}
            rows={Math.min(8, files.length + 1)}
            className="w-full resize-y rounded-md border border-border bg-background-alt p-3 font-mono text-xs"
          />
          {copyFailed && (
            <p className="text-warning" role="status">
              Copying to the clipboard is not allowed here. The links are selected: press Ctrl+C (⌘C on a Mac) to copy them.
            </p>
          )}
          <div className="flex flex-wrap gap-3">
            <Button variant="secondary" onClick={() => void copy()}>
              Copy ED2K Links
            </Button>
            <a
              href={ANIDB_ADD_ANIME}
              target="_blank"
              rel="noreferrer"
              className="inline-flex items-center rounded-md px-4 py-2 text-sm font-semibold text-primary hover:underline"
            >
              Open AniDB
            </a>
          </div>
        </>
      ) : (
        <p>
          Once AniDB lists the files (new entries can take a while to be approved), rescan them here: each file that AniDB now knows moves
          from Unrecognized Files into the collection.
        </p>
      )}
    </Modal>
  );
}
