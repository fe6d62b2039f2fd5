import fs from 'node:fs';

/** The state letter of /proc/<pid>/stat ('T' stopped, 'S' sleeping, 'R' running), null when the process is gone. */
export function processState(pid: number): string | null {
  try {
    return /\) (\w)/.exec(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'))![1];
  } catch {
    return null;
  }
}

/** Waits (a minute at most) until `condition` holds; what it waits for names the failure. */
export async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Still waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
