// The arithmetic of a virtualised list (VirtualList.svelte): items of different heights, each
// measured once it is drawn (an estimate until then), stacked top to bottom; which of them
// overlap a window of the list, found by binary search. Pure functions and one map, so that
// tests can check them without a layout engine.

/** The measured height of each item by key, in CSS pixels; `estimate` for those never drawn. */
export class Heights {
  #known = new Map<string, number>();
  readonly estimate: number;

  constructor(estimate: number) {
    this.estimate = estimate;
  }

  /** The item's height: as measured, or the estimate. */
  get(key: string): number {
    return this.#known.get(key) ?? this.estimate;
  }

  /** Records a measurement; returns how much taller (negative: shorter) the item became. */
  set(key: string, height: number): number {
    const before = this.get(key);
    this.#known.set(key, height);
    return height - before;
  }

  /** Forgets the items not in `keys` (they left the list), so the map does not grow. */
  keepOnly(keys: ReadonlySet<string>): void {
    for (const key of this.#known.keys()) if (!keys.has(key)) this.#known.delete(key);
  }

  /** How many items have been measured. */
  get size(): number {
    return this.#known.size;
  }
}

/**
 * Where each item starts: `offsets[i]` is the top of item `i`, `offsets[n]` the bottom of the
 * last (the list's height), in CSS pixels from the list's top.
 */
export function offsets(keys: readonly string[], height: (key: string) => number): Float64Array {
  const out = new Float64Array(keys.length + 1);
  for (let i = 0; i < keys.length; i++) out[i + 1] = (out[i] ?? 0) + height(keys[i] ?? '');
  return out;
}

/** The first item whose bottom is below `y` (n when none is). */
function firstEndingBelow(offs: Float64Array, y: number): number {
  let lo = 0;
  let hi = offs.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((offs[mid + 1] ?? 0) > y) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * The items that overlap [`from`, `to`) in list coordinates, as a half-open index range, plus
 * every index in `pinned` that exists (the focused card and its neighbours stay drawn when they
 * scroll out, so the focus and Tab keep working); sorted, each once.
 */
export function drawnIndices(
  offs: Float64Array,
  from: number,
  to: number,
  pinned: readonly number[] = [],
): number[] {
  const n = offs.length - 1;
  const out = new Set<number>();
  if (n > 0 && to > from) {
    for (let i = firstEndingBelow(offs, from); i < n && (offs[i] ?? 0) < to; i++) out.add(i);
  }
  for (const i of pinned) if (Number.isInteger(i) && i >= 0 && i < n) out.add(i);
  return [...out].sort((a, b) => a - b);
}

/**
 * How far to scroll (positive: down) to show an item that starts `top` pixels below the view's
 * top and is `height` tall, in a view `view` pixels tall: to its middle (`center`), or as
 * little as brings it wholly in (`nearest`, 0 when it already is).
 */
export function scrollDelta(
  top: number,
  height: number,
  view: number,
  block: 'center' | 'nearest',
): number {
  if (block === 'center') return top + height / 2 - view / 2;
  if (top < 0) return top;
  if (top + height > view) return Math.min(top, top + height - view);
  return 0;
}
