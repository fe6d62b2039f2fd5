import { mdiArrowCollapseDown } from '@mdi/js';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Icon } from '@/components/Icon';
import { useLogStream } from '@/realtime/useLogStream';
import { LogRow } from './LogRow';

const SCROLL_THROTTLE_MS = 1000;
const ROW_HEIGHT = 28;

export default function LogPage() {
  const { lines, status, reconnect } = useLogStream();
  const [autoScroll, setAutoScroll] = useState(true);
  const scrollRef = useRef<HTMLDivElement>(null);
  const lastScrollCheck = useRef(0);
  const lastScrollTop = useRef(0);

  const virtualizer = useVirtualizer({
    count: lines.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
  });

  useLayoutEffect(() => {
    if (autoScroll && lines.length) virtualizer.scrollToIndex(lines.length - 1, { align: 'end' });
  }, [autoScroll, lines.length, virtualizer]);

  // Scrolling up turns auto-scroll off; checked at most once a second.
  const onScroll = () => {
    const element = scrollRef.current;
    if (!element) return;
    const now = Date.now();
    const scrolledUp = element.scrollTop < lastScrollTop.current;
    lastScrollTop.current = element.scrollTop;
    if (!scrolledUp || now - lastScrollCheck.current < SCROLL_THROTTLE_MS) return;
    lastScrollCheck.current = now;
    const atBottom = element.scrollHeight - element.scrollTop - element.clientHeight < ROW_HEIGHT * 2;
    if (!atBottom) setAutoScroll(false);
  };

  useEffect(() => {
    document.title = 'Log | Shoko';
    return () => {
      document.title = 'Shoko';
    };
  }, []);

  return (
    <div className="flex min-h-0 flex-1 flex-col gap-3 p-3 md:p-6">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-xl font-semibold">Log</h1>
        <span
          className={`rounded-full px-2 py-0.5 text-xs font-semibold ${status === 'live' ? 'bg-success/15 text-success' : status === 'closed' ? 'bg-danger/15 text-danger' : 'bg-panel-alt text-muted'}`}
        >
          {status === 'live' ? 'Live' : status === 'closed' ? 'Disconnected' : 'Connecting…'}
        </span>
        {status === 'closed' && (
          <button type="button" onClick={reconnect} className="text-xs font-semibold text-primary hover:underline">
            Reconnect
          </button>
        )}
        <span className="text-xs text-muted">{lines.length} lines</span>
        <label className="ml-auto inline-flex cursor-pointer select-none items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={autoScroll}
            onChange={(e) => setAutoScroll(e.target.checked)}
            className="size-4 accent-[var(--color-primary)]"
          />
          <Icon path={mdiArrowCollapseDown} size={0.75} />
          Auto-scroll
        </label>
      </div>
      <div className="flex min-h-[20rem] flex-1 flex-col overflow-hidden rounded-xl border border-border bg-panel">
        <div className="hidden grid-cols-[11rem_4rem_1fr] gap-3 border-b border-border px-4 py-2 text-xs font-semibold uppercase tracking-wider text-muted sm:grid">
          <span>Time</span>
          <span>Level</span>
          <span>Message</span>
        </div>
        <div ref={scrollRef} onScroll={onScroll} className="relative flex-1 overflow-auto font-mono text-xs" data-testid="log-lines">
          {lines.length === 0 && (
            <p className="p-4 text-muted">{status === 'connecting' ? 'Connecting to the server log…' : 'No log lines yet.'}</p>
          )}
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((item) => (
              <LogRow key={item.key} line={lines[item.index]} index={item.index} start={item.start} measure={virtualizer.measureElement} />
            ))}
          </div>
        </div>
      </div>
    </div>
  );
}
