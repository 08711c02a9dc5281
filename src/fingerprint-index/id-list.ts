/** A reusable, growable list of distinct ids (no allocation per lookup). */
export class IdList {
  ids: Uint32Array;
  count = 0;

  constructor(initialCapacity = 64) {
    this.ids = new Uint32Array(initialCapacity);
  }

  clear(): void {
    this.count = 0;
  }

  /** Adds an id unless present. Lists stay short (true matches plus rare filter passes), so a scan is fine. */
  push(id: number): void {
    const ids = this.ids;
    const n = this.count;
    for (let i = 0; i < n; i++) if (ids[i] === id) return;
    if (n === ids.length) {
      const grown = new Uint32Array(n * 2);
      grown.set(ids);
      this.ids = grown;
    }
    this.ids[n] = id;
    this.count = n + 1;
  }
}
