import { describe, expect, it } from 'vitest';
import { Heights, drawnIndices, offsets, scrollDelta } from './layout';

describe('the virtual list layout', () => {
  it('stacks measured heights and estimates, and finds the items in a window', () => {
    const heights = new Heights(100);
    heights.set('b', 40);
    const offs = offsets(['a', 'b', 'c', 'd'], (k) => heights.get(k));
    expect([...offs]).toEqual([0, 100, 140, 240, 340]);
    expect(drawnIndices(offs, 0, 50)).toEqual([0]);
    expect(drawnIndices(offs, 100, 141)).toEqual([1, 2]);
    expect(drawnIndices(offs, 339, 1000)).toEqual([3]);
    expect(drawnIndices(offs, 340, 1000)).toEqual([]);
    expect(drawnIndices(offs, -500, -10)).toEqual([]);
    // Pinned items are drawn wherever they are, once, in order; unknown ones are not.
    expect(drawnIndices(offs, 239, 260, [0, 3, 9, -1])).toEqual([0, 2, 3]);
  });

  it('says how much an item grew, and forgets items that left', () => {
    const heights = new Heights(100);
    expect(heights.set('a', 130)).toBe(30);
    expect(heights.set('a', 120)).toBe(-10);
    heights.set('b', 10);
    heights.keepOnly(new Set(['b']));
    expect(heights.get('a')).toBe(100);
    expect(heights.size).toBe(1);
  });

  it('scrolls as little as shows an item, or to its middle', () => {
    expect(scrollDelta(100, 50, 500, 'nearest')).toBe(0);
    expect(scrollDelta(-80, 50, 500, 'nearest')).toBe(-80);
    expect(scrollDelta(480, 50, 500, 'nearest')).toBe(30);
    expect(scrollDelta(900, 50, 500, 'center')).toBe(675);
  });

  it('finds the right items among 10,000 of different heights', () => {
    const keys = Array.from({ length: 10_000 }, (_, i) => `k${i}`);
    const offs = offsets(keys, (k) => (Number(k.slice(1)) % 2 ? 30 : 70));
    // Every pair is 100 px: the item at 250,000 px is number 5,000.
    expect(drawnIndices(offs, 250_000, 250_001)).toEqual([5000]);
    expect(drawnIndices(offs, 250_000, 250_101)).toEqual([5000, 5001, 5002]);
  });
});
