import type { ReactNode } from 'react';
import { Icon } from '@/components/Icon';

/** One notice above the page: a tone, an icon and what to say; clickable when it offers an action. */
export function Banner({
  tone,
  icon,
  children,
  onClick,
  testId,
}: {
  tone: 'warning' | 'danger' | 'info';
  icon: string;
  children: ReactNode;
  onClick?: () => void;
  testId: string;
}) {
  const tones = {
    warning: 'border-warning/40 bg-warning/10 text-warning',
    danger: 'border-danger/40 bg-danger/10 text-danger',
    info: 'border-secondary/40 bg-secondary/10 text-secondary',
  };
  const content = (
    <>
      <Icon path={icon} size={0.85} className="shrink-0" />
      <span className="text-left">{children}</span>
    </>
  );
  const className = `flex w-full items-center gap-2 rounded-lg border px-3 py-2 text-sm font-semibold ${tones[tone]}`;
  return onClick ? (
    <button type="button" className={`${className} cursor-pointer hover:brightness-125`} onClick={onClick} data-testid={testId}>
      {content}
    </button>
  ) : (
    <div className={className} data-testid={testId}>
      {content}
    </div>
  );
}
