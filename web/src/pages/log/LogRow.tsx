import dayjs from 'dayjs';
import type { LogEvent } from '@shoko-ts/contract';

const levelColours: Record<string, string> = {
  Trace: 'text-muted',
  Debug: 'text-muted',
  Info: 'text-secondary',
  Warn: 'text-warning',
  Error: 'text-danger',
  Fatal: 'text-danger font-bold',
};

interface LogRowProps {
  line: LogEvent;
  index: number;
  start: number;
  measure: (element: Element | null) => void;
}

export function LogRow({ line, index, start, measure }: LogRowProps) {
  return (
    <div
      ref={measure}
      data-index={index}
      className="absolute left-0 top-0 grid w-full grid-cols-1 gap-x-3 border-b border-border/40 px-4 py-1 hover:bg-panel-alt sm:grid-cols-[11rem_4rem_1fr]"
      style={{ transform: `translateY(${start}px)` }}
    >
      <span className="text-muted">{dayjs(line.TimeStamp).format('YYYY-MM-DD HH:mm:ss')}</span>
      <span className={levelColours[line.Level] ?? 'text-text'}>{line.Level}</span>
      <span className="whitespace-pre-wrap break-all">{line.Message}</span>
    </div>
  );
}
