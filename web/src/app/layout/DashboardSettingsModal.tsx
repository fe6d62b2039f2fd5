import { Button } from '@/components/Button';
import { Modal } from '@/components/Modal';

export function DashboardSettingsModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Modal open={open} onClose={onClose} title="Dashboard Settings" footer={<Button variant="secondary" onClick={onClose}>Close</Button>}>
      <p className="text-muted">Widget visibility and list sizes — arrive with the dashboard widgets feature.</p>
    </Modal>
  );
}
