// Small helpers the benchmarks share.
import net from 'node:net';
import { fileURLToPath } from 'node:url';

/** A loopback port nothing listens on right now. */
export const freePort = () =>
  new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

/** Debian's Chromium and the flags it needs on this closed, headless machine (browser benches). */
// Debian's Chromium through scripts/chromium-quiet.sh (the browser tests use it too): each new browser context (a window) otherwise starts a renderer
// for the omnibox popup's WebUI that spends ~0.5 s of CPU while the measured page loads, on a 2-core machine.
export const CHROMIUM = process.env.BENCH_CHROMIUM ?? fileURLToPath(new URL('../scripts/chromium-quiet.sh', import.meta.url));
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The p-th percentile (nearest rank) of ascending `sorted`. */
export const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];

/**
 * `report` with the generated block `name` replaced, or put at the top of section `section`, or in a new section at the
 * end (a bench may write several blocks, e.g. first-visit-100k and first-visit-400k in section first-visit).
 */
export function replaceResults(report, section, name, block) {
  const marked = new RegExp(`<!-- results:${name} -->[\\s\\S]*?<!-- /results:${name} -->`);
  if (marked.test(report)) return report.replace(marked, () => block);
  const heading = new RegExp(`^## ${section}\\n`, 'm');
  const match = heading.exec(report);
  if (match) {
    const at = match.index + match[0].length;
    return `${report.slice(0, at)}\n${block}\n${report.slice(at)}`;
  }
  return `${report.trimEnd()}\n\n## ${section}\n\n${block}\n`;
}
