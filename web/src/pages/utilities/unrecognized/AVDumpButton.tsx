import { mdiDumpTruck } from '@mdi/js';
import { useState } from 'react';
import { toast } from 'react-toastify';
import type { File } from '@shoko-ts/contract';
import { useDumpFiles } from '@/api/avdump';
import { Button } from '@/components/Button';
import { Icon } from '@/components/Icon';
import { useAggregateState } from '@/realtime/AggregateHub';
import { avdumpButtonState } from '@/realtime/avdump';
import { AddToAniDBModal } from './AddToAniDBModal';

/** Dumps the selected files with AVDump; once all are dumped, helps add them to AniDB. */
export function AVDumpButton({ files }: { files: File[] }) {
  const { avdump } = useAggregateState();
  const dump = useDumpFiles();
  const [finishing, setFinishing] = useState<File[] | null>(null);
  const { label, toDump } = avdumpButtonState(files, avdump);
  const dumping = label === 'Dumping Files...' || dump.isPending;

  const onClick = () => {
    if (label === 'Finish AVDump') {
      setFinishing(files);
      return;
    }
    dump.mutate(toDump, { onError: (error) => toast.error(`AVDump failed! ${error.message}`) });
  };

  return (
    <>
      <Button variant="secondary" disabled={!files.length || dumping} busy={dump.isPending} onClick={onClick}>
        <Icon path={mdiDumpTruck} size={0.8} />
        {dump.isPending ? 'Dumping Files...' : label}
      </Button>
      {finishing && <AddToAniDBModal files={finishing} onClose={() => setFinishing(null)} />}
    </>
  );
}
