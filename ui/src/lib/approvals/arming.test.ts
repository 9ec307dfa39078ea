import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ARM_MS, Arming, STILL_POINTER_ARM_MS, type ArmingPage } from './arming.svelte';
import type { Point } from '../pointer';

/** A page whose clock follows the fake timers and whose pointer and screen the test moves. */
function fakePage() {
  const state = {
    pointer: null as Point | null,
    over: false,
    watch: undefined as ((onScreen: boolean) => void) | undefined,
    watching: 0,
  };
  const page: ArmingPage = {
    now: () => Date.now(),
    pointer: () => state.pointer,
    stillOver: () => state.over,
    watchOnScreen: (_element, watch) => {
      state.watch = watch;
      state.watching++;
      watch(true);
      return () => state.watching--;
    },
  };
  return { page, state };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('Arming', () => {
  it('arms a new card only after the arming delay', () => {
    const { page } = fakePage();
    const arming = new Arming(page);
    arming.attach(document.createElement('article'));
    arming.at(0);
    expect(arming.armed).toBe(false);
    vi.advanceTimersByTime(ARM_MS - 1);
    expect(arming.armed).toBe(false);
    vi.advanceTimersByTime(1);
    expect(arming.armed).toBe(true);
  });

  it('waits longer while the pointer rests on the card, and no longer than the cap', () => {
    const { page, state } = fakePage();
    state.pointer = { x: 10, y: 10 };
    state.over = true;
    const arming = new Arming(page);
    arming.attach(document.createElement('article'));
    arming.at(0);
    vi.advanceTimersByTime(ARM_MS + 300);
    expect(arming.armed).toBe(false);
    vi.advanceTimersByTime(STILL_POINTER_ARM_MS - ARM_MS - 300);
    expect(arming.armed).toBe(true);

    // The pointer moves away: it arms at the next look.
    arming.at(1);
    vi.advanceTimersByTime(ARM_MS);
    expect(arming.armed).toBe(false);
    state.over = false;
    vi.advanceTimersByTime(100);
    expect(arming.armed).toBe(true);
  });

  it('re-arms a card that moves on screen, and not one that moves off screen', () => {
    const { page, state } = fakePage();
    const arming = new Arming(page);
    arming.attach(document.createElement('article'));
    arming.at(3);
    vi.advanceTimersByTime(ARM_MS);
    expect(arming.armed).toBe(true);
    arming.at(3); // the same place: nothing happens
    expect(arming.armed).toBe(true);
    arming.at(2);
    expect(arming.armed).toBe(false);
    vi.advanceTimersByTime(ARM_MS);
    expect(arming.armed).toBe(true);

    state.watch?.(false);
    arming.at(1);
    expect(arming.armed).toBe(true);
    // Coming onto the screen long after the move: still armed.
    vi.advanceTimersByTime(ARM_MS);
    state.watch?.(true);
    expect(arming.armed).toBe(true);
  });

  it('re-arms a card that slides onto the screen right after it moved', () => {
    const { page, state } = fakePage();
    const arming = new Arming(page);
    arming.attach(document.createElement('article'));
    arming.at(5);
    vi.advanceTimersByTime(ARM_MS);
    state.watch?.(false);
    arming.at(4);
    vi.advanceTimersByTime(ARM_MS / 2);
    state.watch?.(true);
    expect(arming.armed).toBe(false);
    vi.advanceTimersByTime(ARM_MS);
    expect(arming.armed).toBe(true);
  });

  it('re-arms when the window scrolled the cards to show a new one', () => {
    const { page, state } = fakePage();
    const arming = new Arming(page);
    arming.attach(document.createElement('article'));
    arming.at(0);
    vi.advanceTimersByTime(ARM_MS);
    expect(arming.armed).toBe(true);
    // On screen when the window scrolled: a click on its way must not land on it.
    arming.moved();
    expect(arming.armed).toBe(false);
    vi.advanceTimersByTime(ARM_MS);
    expect(arming.armed).toBe(true);
    // Off screen, then scrolled onto it: it re-arms as it arrives.
    state.watch?.(false);
    arming.moved();
    expect(arming.armed).toBe(true);
    state.watch?.(true);
    expect(arming.armed).toBe(false);
    vi.advanceTimersByTime(ARM_MS);
    expect(arming.armed).toBe(true);
  });

  it('stops watching and its timer when detached', () => {
    const { page, state } = fakePage();
    const arming = new Arming(page);
    const detach = arming.attach(document.createElement('article'));
    arming.at(0);
    expect(state.watching).toBe(1);
    detach();
    expect(state.watching).toBe(0);
    vi.advanceTimersByTime(STILL_POINTER_ARM_MS);
    expect(arming.armed).toBe(false);
  });
});
