// Which cards are on screen, from one IntersectionObserver shared by every card (1,000 cards
// share one observer rather than running 1,000). A card re-arms its buttons when it moves only
// if a click could land on it: cards far below the fold stay as they are (BENCHMARKS.md,
// "1,000 approvals at once").

type Watcher = (onScreen: boolean) => void;

const watchers = new WeakMap<Element, Watcher>();
let observer: IntersectionObserver | undefined;

/**
 * Calls `watch(true|false)` whenever `element` comes into or leaves the viewport (clipped by
 * its scrolling ancestors), first once soon after this call. Returns the function that stops
 * watching. Where the page has no IntersectionObserver, every element counts as on screen.
 */
export function watchOnScreen(element: Element, watch: Watcher): () => void {
  if (typeof IntersectionObserver === 'undefined') {
    watch(true);
    return () => {};
  }
  observer ??= new IntersectionObserver((entries) => {
    for (const entry of entries) watchers.get(entry.target)?.(entry.isIntersecting);
  });
  watchers.set(element, watch);
  observer.observe(element);
  return () => {
    observer?.unobserve(element);
    watchers.delete(element);
  };
}
