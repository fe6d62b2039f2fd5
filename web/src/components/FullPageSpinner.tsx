import { Spinner } from './Spinner';

export function FullPageSpinner() {
  return (
    <div className="flex min-h-full items-center justify-center">
      <Spinner size={2} />
    </div>
  );
}
