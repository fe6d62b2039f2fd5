import type { AniDBQueueEstimate } from '@shoko-ts/contract';
import { useAniDBQueueEstimate } from '@/api/queue';

/** `45 s`, `12 min`, `8 h 20 min`, `2 d 4 h`: a work-left time for people, never more precise than it can be. */
export function formatWorkLeft(seconds: number): string {
  if (seconds < 60) return `${Math.max(0, Math.round(seconds))} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days} d ${hours % 24} h` : `${days} d`;
}

/**
 * `120 lookups · 5,000 anime · 25,000 pictures`: what the estimate counts (pictures to come with the anime included),
 * the streams with work only.
 */
export function describeAniDBWork(estimate: AniDBQueueEstimate): string {
  const count = (n: number) => n.toLocaleString('en');
  const pictures = estimate.Images.Requests + estimate.Images.Expected;
  return [
    estimate.Udp.Requests ? `${count(estimate.Udp.Requests)} ${estimate.Udp.Requests === 1 ? 'lookup' : 'lookups'}` : '',
    estimate.Http.Requests ? `${count(estimate.Http.Requests)} anime` : '',
    pictures ? `${count(pictures)} ${pictures === 1 ? 'picture' : 'pictures'}` : '',
  ]
    .filter(Boolean)
    .join(' · ');
}

/** The queue view's line on the AniDB work left, at AniDB's pace (hidden when there is none). */
export function AniDBWorkLeft() {
  const { data } = useAniDBQueueEstimate();
  if (!data) return null;
  const work = describeAniDBWork(data);
  if (!work) return null;
  const held = [data.Udp, data.Http, data.Images].find((stream) => stream.Requests && stream.HeldReason)?.HeldReason;
  return (
    <p className="rounded-md bg-background-alt px-3 py-2 text-xs text-muted" data-testid="anidb-work-left">
      <span className="font-semibold text-text">AniDB work left: about {formatWorkLeft(data.TotalSeconds)}</span> at AniDB&apos;s pace (
      {work}){held ? <span className="block text-warning">Waiting: {held}</span> : null}
    </p>
  );
}
