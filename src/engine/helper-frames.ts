// The framing of a helper's answer. Each record is a header `<token> <index> <key> <length>\n` followed by
// exactly <length> bytes and a newline, the token random per run. The host reads records one after the
// other by their lengths and never searches the data for a header, so no file name or file content that
// a helper prints can forge a record.
export interface Frame {
  index: string;
  key: string;
  value: Buffer;
}

/**
 * The records, read one after the other by their lengths. Reading stops at the first byte that is not
 * a well-formed header of this run: what follows is never taken for a record.
 */
export function parseFrames(stdout: Buffer, token: string): Frame[] {
  const frames: Frame[] = [];
  const header = new RegExp(`^${token} ([0-9]+|end) ([a-zA-Z-]+) ([0-9]{1,9})$`);
  let at = 0;
  while (at < stdout.length) {
    const nl = stdout.indexOf(0x0a, at);
    if (nl < 0 || nl - at > 200) break;
    const match = header.exec(stdout.toString('latin1', at, nl));
    if (!match) break;
    const length = Number(match[3]);
    const start = nl + 1;
    if (start + length + 1 > stdout.length || stdout[start + length] !== 0x0a) break;
    frames.push({ index: match[1], key: match[2], value: stdout.subarray(start, start + length) });
    at = start + length + 1;
  }
  return frames;
}
