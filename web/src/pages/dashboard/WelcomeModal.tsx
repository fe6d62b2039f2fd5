import { useState } from 'react';
import { Button } from '@/components/Button';
import { Modal } from '@/components/Modal';
import { dismissWelcome, isWelcomePending } from '@/lib/welcome';

export function WelcomeModal() {
  const [open, setOpen] = useState(isWelcomePending);
  const close = () => {
    dismissWelcome();
    setOpen(false);
  };
  return (
    <Modal open={open} onClose={close} title="Welcome to Shoko!" footer={<Button onClick={close}>Set Me Free!</Button>}>
      <p>Your server is set up. Shoko is now scanning your import folders in the background.</p>
      <ul className="list-disc space-y-1 pl-5 text-muted">
        <li>The queue count in the top bar shows how much work is left.</li>
        <li>Files Shoko cannot identify end up in Utilities › Unrecognized Files.</li>
        <li>The Log page shows what the server is doing, live.</li>
      </ul>
    </Modal>
  );
}
