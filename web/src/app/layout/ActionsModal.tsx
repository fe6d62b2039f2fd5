import { Button } from '@/components/Button';
import { Modal } from '@/components/Modal';

export function ActionsModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Modal open={open} onClose={onClose} title="Actions" footer={<Button variant="secondary" onClick={onClose}>Close</Button>}>
      <p className="text-muted">
        Server actions (import, AniDB, TMDB, Shoko, images, Plex) — arrive with the actions feature.
      </p>
    </Modal>
  );
}
