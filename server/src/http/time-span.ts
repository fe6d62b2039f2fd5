/** .NET TimeSpan text `[d.]hh:mm:ss[.fffffff]`, fraction omitted when zero. */
export function formatTimeSpan(ms: number): string {
  const totalSeconds = Math.floor(ms / 1000);
  const days = Math.floor(totalSeconds / 86400);
  const hours = Math.floor((totalSeconds % 86400) / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  const fraction = Math.round((ms % 1000) * 10_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${days ? `${days}.` : ''}${pad(hours)}:${pad(minutes)}:${pad(seconds)}${fraction ? `.${String(fraction).padStart(7, '0')}` : ''}`;
}
