import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '@/components/Button';

interface StepFrameProps {
  title: string;
  children: ReactNode;
  /** Previous step path; no Back button when absent. */
  back?: string;
  backDisabled?: boolean;
  nextLabel?: string;
  nextDisabled?: boolean;
  nextBusy?: boolean;
  onNext: () => void;
  error?: string | null;
}

export function StepFrame({
  title,
  children,
  back,
  backDisabled,
  nextLabel = 'Next',
  nextDisabled,
  nextBusy,
  onNext,
  error,
}: StepFrameProps) {
  const navigate = useNavigate();
  return (
    <form
      className="flex flex-1 flex-col gap-6"
      onSubmit={(event) => {
        event.preventDefault();
        if (!nextDisabled && !nextBusy) onNext();
      }}
    >
      <h1 className="text-2xl font-semibold">{title}</h1>
      <div className="flex flex-1 flex-col gap-4 text-sm leading-relaxed">{children}</div>
      {error && (
        <p role="alert" className="rounded-md border border-danger/40 bg-danger/10 px-3 py-2 text-sm font-semibold text-danger">
          {error}
        </p>
      )}
      <div className="flex justify-end gap-3">
        {back && (
          <Button variant="secondary" disabled={backDisabled} onClick={() => navigate(`../${back}`)}>
            Back
          </Button>
        )}
        <Button type="submit" disabled={nextDisabled} busy={nextBusy}>
          {nextLabel}
        </Button>
      </div>
    </form>
  );
}
