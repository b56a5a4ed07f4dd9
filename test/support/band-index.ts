import { BandIndex } from '../../src/store/band-index.js';
import { BAND_FANOUT } from '../../src/store/rows.js';

/** The index's nodes under a key, lowest first, as its search reads them (nodesInto). */
export function nodesOf(index: BandIndex, key: number, limit = BAND_FANOUT): number[] {
  const out = new Uint32Array(limit);
  return [...out.subarray(0, index.nodesInto(key, out, 0, limit))].sort((a, b) => a - b);
}
