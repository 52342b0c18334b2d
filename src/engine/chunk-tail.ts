// A bounded tail of a stream's output: what error messages and reports quote of a program that may print
// without end.

/** The last chunks of a stream, at least `bytes` of them when there were that many. */
export class ChunkTail {
  private chunks: Buffer[] = [];
  private size = 0;

  constructor(private readonly bytes: number) {}

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.chunks.length > 1 && this.size - this.chunks[0].length >= this.bytes)
      this.size -= this.chunks.shift()!.length;
  }

  text(): string {
    const all = Buffer.concat(this.chunks);
    return all.subarray(Math.max(0, all.length - this.bytes)).toString('utf8');
  }
}
