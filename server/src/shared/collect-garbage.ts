import v8 from 'node:v8';
import vm from 'node:vm';

let collector: (() => void) | null | undefined;

/**
 * A full garbage collection now; false where the collector cannot be reached. Bulk work (a 100,000-file Shoko import)
 * leaves about a gigabyte of rows already written on the heap, which V8 collected when it saw fit: a pause of 70–100 ms
 * in the middle of the first requests after the import. Run as the bulk work ends, the pause falls inside it.
 * The server runs without --expose-gc: the flag is set for as long as one new context is made, whose `gc` is kept.
 */
export function collectGarbage(): boolean {
  if (collector === undefined) {
    try {
      v8.setFlagsFromString('--expose-gc');
      collector = vm.runInNewContext('gc') as () => void;
    } catch {
      collector = null;
    } finally {
      v8.setFlagsFromString('--no-expose-gc');
    }
  }
  collector?.();
  return !!collector;
}
