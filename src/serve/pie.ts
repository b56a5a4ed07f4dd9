/** One slice of the wheel as drawn: its share of the whole and the SVG path of its sector. */
export interface Slice {
  label: string;
  value: number;
  share: number;
  path: string;
}

/**
 * Sectors of a pie of radius r centred on (r, r), one per value in order, clockwise from twelve
 * o'clock (thesis figure 5: each domain's share of the roulette wheel). A value that is the whole
 * is a full circle, which an arc cannot draw.
 */
export function pieSlices(items: readonly { label: string; value: number }[], r: number): Slice[] {
  const total = items.reduce((a, x) => a + Math.max(0, x.value), 0);
  if (total <= 0) return [];
  const point = (turn: number) => {
    const a = 2 * Math.PI * turn;
    return `${fmt(r + r * Math.sin(a))} ${fmt(r - r * Math.cos(a))}`;
  };
  let start = 0;
  return items.map((x) => {
    const share = Math.max(0, x.value) / total;
    const end = start + share;
    const path = share >= 1 - 1e-9
      ? `M ${fmt(r)} 0 A ${r} ${r} 0 1 1 ${fmt(r - 0.001)} 0 Z`
      : share <= 0 ? '' : `M ${r} ${r} L ${point(start)} A ${r} ${r} 0 ${share > 0.5 ? 1 : 0} 1 ${point(end)} Z`;
    start = end;
    return { label: x.label, value: x.value, share, path };
  });
}

function fmt(n: number): string {
  return (Math.round(n * 1000) / 1000).toString();
}
