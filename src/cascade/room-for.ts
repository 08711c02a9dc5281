/**
 * Arrays indexed by page id, filled as ids come (counters, entry bars, candidate lists): `array`
 * when it has the slots of `id` (`stride` slots an id), else a copy of it with room for them, at
 * least twice as long (so an array is copied O(log n) times), new slots 0.
 */
export function roomFor<T extends Int32Array | Uint32Array | Uint16Array | Uint8Array>(array: T, id: number, stride = 1): T {
  if ((id + 1) * stride <= array.length) return array;
  const out = new (array.constructor as new (length: number) => T)(Math.max((id + 1) * stride, 2 * array.length));
  out.set(array);
  return out;
}
