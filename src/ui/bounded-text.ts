// Untrusted text of any size held within bounds in bytes, for a file a command reads (the context file):
// cut between characters, never inside one, and of a list the newest items first, saying what was left out.

/** The longest prefix of `text` within `maxBytes` of UTF-8 that splits no character. */
export function cutToBytes(text: string, maxBytes: number): { text: string; cut: boolean } {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return { text, cut: false };
  let end = Math.max(0, maxBytes);
  // Back to the first byte of a character: a continuation byte is 10xxxxxx.
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return { text: bytes.subarray(0, end).toString('utf8'), cut: true };
}

/**
 * The newest of `items` first (the latest word matters most), at most `maxCount`, within `maxBytes` in
 * all: each one's body and the bytes `charged` for its other fields (already bounded). The last one kept
 * may have its body cut short. Returned newest first, with the count of older ones left out.
 */
export function keepNewest<T extends { body: string }>(
  items: readonly T[],
  maxCount: number,
  maxBytes: number,
  charged: (item: T) => number = () => 0,
): { kept: T[]; leftOut: number; bodiesCut: number } {
  const kept: T[] = [];
  let room = maxBytes;
  let bodiesCut = 0;
  for (let i = items.length - 1; i >= 0 && kept.length < maxCount && !bodiesCut; i--) {
    room -= charged(items[i]);
    if (room <= 0) break;
    const body = cutToBytes(items[i].body, room);
    kept.push({ ...items[i], body: body.text });
    room -= Buffer.byteLength(body.text, 'utf8');
    if (body.cut) bodiesCut = 1;
  }
  return { kept, leftOut: items.length - kept.length, bodiesCut };
}
