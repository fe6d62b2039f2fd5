import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '@/api/client';
import { isErrorReportingEnabled } from '@/lib/errorReporting';
import { markWelcomePending } from '@/lib/welcome';
import { StepFrame } from './StepFrame';
import { useFirstRun } from './wizardContext';

export default function DataCollectionStep() {
  const navigate = useNavigate();
  const { markSaved } = useFirstRun();
  const [finishing, setFinishing] = useState(false);

  const finish = async () => {
    setFinishing(true);
    // Start scanning the import folders; a failure here must not keep the user in the wizard.
    await api.get('Action/RunImport').catch(() => undefined);
    markSaved('data-collection');
    sessionStorage.removeItem('shoko-ts.firstrun.saved');
    markWelcomePending();
    navigate('/dashboard', { replace: true });
  };

  return (
    <StepFrame title="Data Collection" back="import-folders" nextLabel="Finish" nextBusy={finishing} onNext={() => void finish()}>
      <p>
        Error reporting is <strong>off by default</strong>. This console sends nothing about you, your collection or your usage anywhere.
      </p>
      <p className="text-muted">
        Whoever builds the console can opt in to crash reports by configuring a reporting endpoint at build time. Only then would errors be
        sent, with performance traces sampled at 10 % and a short navigation trail attached to error reports only.
      </p>
      <p className="rounded-md border border-border bg-background-alt px-3 py-2" data-testid="error-reporting-state">
        Error reporting in this build: <strong>{isErrorReportingEnabled() ? 'enabled' : 'disabled'}</strong>
      </p>
      <p className="text-muted">Press Finish to start the first import and open your dashboard.</p>
    </StepFrame>
  );
}
