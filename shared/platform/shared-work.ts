/** Work under way by key: callers asking for a key while its work runs share it, e.g. one redaction per plan in a process (docs/design-for-speed.md, "Shared work"). */
export class SharedWork<T> {
  private readonly running = new Map<string, Promise<T>>();

  /** `work()` for `key`, or the promise of the same key's work still under way. */
  run(key: string, work: () => Promise<T>): Promise<T> {
    let made = this.running.get(key);
    if (!made) {
      made = work().finally(() => this.running.delete(key));
      this.running.set(key, made);
    }
    return made;
  }
}
