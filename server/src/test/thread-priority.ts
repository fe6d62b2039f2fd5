import fs from 'node:fs';

/** Nice values of this process's threads, from /proc (Linux gives each thread its own). */
export const threadNiceValues = (): number[] =>
  fs.readdirSync('/proc/self/task').flatMap((task) => {
    try {
      const stat = fs.readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
      return [Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])];
    } catch {
      return []; // a thread that ended while the list was read
    }
  });
