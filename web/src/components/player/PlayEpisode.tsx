import { mdiPlay } from '@mdi/js';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import type { File } from '@shoko-ts/contract';
import { importFoldersQuery, offlineFolderIdsOf } from '@/api/importFolders';
import { episodeFilesQuery } from '@/api/playback';
import { Button } from '@/components/Button';
import { Icon } from '@/components/Icon';
import { Modal, ModalFooter } from '@/components/Modal';
import { Spinner } from '@/components/Spinner';
import { clockText, timeSpanSeconds } from '@/components/dashboard/progress';
import { reachNote } from '@/components/importFolders/offline';
import { formatFileSize, splitRelativePath } from '@/lib/format';
import { playerPath } from './playerPath';

const NO_FOLDERS: ReadonlySet<number> = new Set();

interface PlayEpisodeProps {
  episodeId: number;
  /** The file to play when the caller knows it (Continue Watching knows the file in progress). */
  fileId?: number | null;
  /** What the button plays, for its accessible name: `Play Episode 3`. */
  title: string;
  /** `icon`: a round button laid over a poster. */
  look?: 'button' | 'icon';
  className?: string;
}

/**
 * Play for an episode: straight to the player when it has one file (or the caller names one), a chooser when it has
 * several. The episode's files are read only when the button is pressed.
 */
export function PlayEpisodeButton({ episodeId, fileId, title, look = 'button', className = '' }: PlayEpisodeProps) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [choices, setChoices] = useState<File[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [offlineFolders, setOfflineFolders] = useState<ReadonlySet<number>>(NO_FOLDERS);
  const play = (id: number) => void navigate(playerPath(id, episodeId));

  const onClick = async () => {
    if (fileId) return play(fileId);
    setBusy(true);
    setProblem(null);
    try {
      const files = await queryClient.fetchQuery(episodeFilesQuery(episodeId));
      // Whether a folder is offline matters only for a file with no reachable location: the folders (a slow answer on
      // a large collection) are read then, not by every Play button a page draws.
      const unreachable = files.some((file) => !file.Locations.some((location) => location.IsAccessible));
      const offline = unreachable ? offlineFolderIdsOf(await queryClient.fetchQuery(importFoldersQuery())) : NO_FOLDERS;
      setOfflineFolders(offline);
      // A file whose import folder is offline cannot be played until the folder is back; its record is kept.
      if (files.length === 1 && reachNote(files[0], offline) === 'Offline')
        setProblem('Offline: the import folder of this file cannot be reached now.');
      else if (files.length === 1) play(files[0].ID);
      else if (files.length > 1) setChoices(files);
      else setProblem('No file to play.');
    } catch (error) {
      setProblem((error as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const label = `Play ${title}`;
  return (
    <>
      {look === 'icon' ? (
        <button
          type="button"
          onClick={() => void onClick()}
          aria-label={label}
          title={label}
          className={`inline-flex size-9 items-center justify-center rounded-full bg-primary text-on-primary shadow-lg transition-transform hover:scale-110 hover:bg-primary-hover ${className}`}
          data-testid="play-episode"
        >
          {busy ? <Spinner size={0.8} className="text-on-primary" /> : <Icon path={mdiPlay} size={0.9} />}
        </button>
      ) : (
        <Button
          className={`px-3 py-1.5 ${className}`}
          onClick={() => void onClick()}
          busy={busy}
          aria-label={label}
          data-testid="play-episode"
        >
          <Icon path={mdiPlay} size={0.7} /> Play
        </Button>
      )}
      {problem && <span className="text-xs text-danger">{problem}</span>}
      <FileChooser
        open={!!choices}
        files={choices ?? []}
        offlineFolders={offlineFolders}
        onChoose={play}
        onClose={() => setChoices(null)}
      />
    </>
  );
}

const fileName = (file: File) => (file.Locations[0] ? splitRelativePath(file.Locations[0].RelativePath).name : `File ${file.ID}`);

function fileDetails(file: File, offlineFolders: ReadonlySet<number>): string {
  const resume = timeSpanSeconds(file.ResumePosition);
  return [
    file.Resolution,
    formatFileSize(file.Size),
    file.IsVariation ? 'Variation' : null,
    file.Watched ? 'Watched' : resume ? `Stopped at ${clockText(resume)}` : null,
    reachNote(file, offlineFolders),
  ]
    .filter(Boolean)
    .join(' · ');
}

/** The episode's files, one button each, when there is more than one to play. */
function FileChooser({
  open,
  files,
  offlineFolders,
  onChoose,
  onClose,
}: {
  open: boolean;
  files: File[];
  offlineFolders: ReadonlySet<number>;
  onChoose: (fileId: number) => void;
  onClose: () => void;
}) {
  return (
    <Modal open={open} onClose={onClose} title="Choose a File" footer={<ModalFooter onCancel={onClose} />}>
      <p className="text-muted">This episode has {files.length} files. Which one do you want to watch?</p>
      <ul className="flex flex-col gap-2" aria-label="Files" data-testid="file-chooser">
        {files.map((file) => (
          <li key={file.ID}>
            <button
              type="button"
              onClick={() => onChoose(file.ID)}
              className="flex w-full items-center gap-3 rounded-lg border border-border bg-panel-alt px-4 py-3 text-left hover:border-primary"
            >
              <Icon path={mdiPlay} size={0.9} className="shrink-0 text-primary" />
              <span className="flex min-w-0 flex-col">
                <span className="font-semibold break-all">{fileName(file)}</span>
                <span className="text-xs text-muted">{fileDetails(file, offlineFolders)}</span>
              </span>
            </button>
          </li>
        ))}
      </ul>
    </Modal>
  );
}
