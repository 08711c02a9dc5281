/**
 * A pull reader over a stream of byte chunks, for framing formats (WARC): read, skip or peek a
 * number of bytes, and push bytes back when a frame turned out to end earlier than it said. Holds
 * only what was asked for plus one chunk, and never more bytes than the stream has: at its end a
 * read or skip comes back short instead of waiting.
 */
export class ByteSource {
  /** Bytes consumed so far (pushed-back bytes are not consumed). */
  offset = 0;
  private chunks: Buffer[] = [];
  private buffered = 0;
  private done = false;
  private readonly source: AsyncIterator<Buffer | string>;

  constructor(source: AsyncIterable<Buffer | string>) {
    this.source = source[Symbol.asyncIterator]();
  }

  /** Bytes held and not consumed. */
  get available(): number {
    return this.buffered;
  }

  /** True when the stream has ended and every byte was consumed. */
  get ended(): boolean {
    return this.done && this.buffered === 0;
  }

  /** Pulls chunks until `n` bytes are held or the stream ends; true when `n` are held. */
  async fill(n: number): Promise<boolean> {
    while (this.buffered < n && !this.done) {
      const next = await this.source.next();
      if (next.done === true) {
        this.done = true;
        break;
      }
      const chunk = typeof next.value === 'string' ? Buffer.from(next.value, 'utf8') : next.value;
      if (chunk.length === 0) continue;
      this.chunks.push(chunk);
      this.buffered += chunk.length;
    }
    return this.buffered >= n;
  }

  /** The first `n` held bytes (fewer if fewer are held), not consumed. Call fill first. */
  peek(n: number): Buffer {
    const want = Math.min(n, this.buffered);
    if (want === 0) return Buffer.alloc(0);
    if (this.chunks[0]!.length < want) {
      let taken = 0;
      let count = 0;
      while (taken < want) taken += this.chunks[count++]!.length;
      this.chunks.splice(0, count, Buffer.concat(this.chunks.slice(0, count), taken));
    }
    return this.chunks[0]!.subarray(0, want);
  }

  /** Consumes up to `n` held bytes; returns how many. */
  private drop(n: number): number {
    let left = Math.min(n, this.buffered);
    const dropped = left;
    while (left > 0) {
      const first = this.chunks[0]!;
      if (first.length <= left) {
        this.chunks.shift();
        left -= first.length;
      } else {
        this.chunks[0] = first.subarray(left);
        left = 0;
      }
    }
    this.buffered -= dropped;
    this.offset += dropped;
    return dropped;
  }

  /** Reads `n` bytes, fewer only when the stream ends first. */
  async read(n: number): Promise<Buffer> {
    await this.fill(n);
    const out = Buffer.from(this.peek(n));
    this.drop(out.length);
    return out;
  }

  /**
   * Skips `n` bytes without holding them, fewer only when the stream ends first. `onBytes` sees
   * every skipped byte, in order, a piece at a time.
   */
  async skip(n: number, onBytes?: (piece: Buffer) => void): Promise<number> {
    let left = n;
    while (left > 0) {
      if (this.buffered === 0 && !(await this.fill(1))) break;
      const piece = this.chunks[0]!.subarray(0, Math.min(left, this.chunks[0]!.length));
      onBytes?.(piece);
      left -= this.drop(piece.length);
    }
    return n - left;
  }

  /** Puts consumed bytes back in front: the next read returns them first. */
  unshift(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.chunks.unshift(bytes);
    this.buffered += bytes.length;
    this.offset -= bytes.length;
  }

  /** Ends reading: the stream's `return` runs (closing a file behind it). */
  async close(): Promise<void> {
    this.chunks = [];
    this.buffered = 0;
    this.done = true;
    await this.source.return?.();
  }
}
