/**
 * Runs async sections one at a time, in call order, within this process: for a check-then-write that must not
 * interleave with another run of itself (two jobs each finding no group, then each creating one).
 */
export class Exclusive {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(section: () => Promise<T>): Promise<T> {
    const result = this.tail.then(section, section);
    // The next section waits for this one to settle, whether it succeeded or failed.
    this.tail = result.catch(() => undefined);
    return result;
  }
}
