/**
 * The feed list is one composite widget with a roving tab index: Tab stops once, on the selected
 * card (tabindex 0, the others -1); Up/Down or j/k move between cards; Left/Right move among the
 * controls inside the focused card, which are all tabindex -1, so Tab from any of them leaves the
 * list instead of walking through every link and button of every card.
 */

const FOCUSABLE = 'a[href], button, input, select, textarea, [tabindex]';

/** The card's own controls that can take focus now (a hidden menu's buttons cannot). */
function controlsOf(card: HTMLElement): HTMLElement[] {
  return [...card.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (node) => !(node as HTMLButtonElement).disabled && node.getClientRects().length > 0 && getComputedStyle(node).visibility !== 'hidden',
  );
}

/** Takes every control of the card out of the Tab order (they are reached with Left/Right). */
export function removeFromTabOrder(card: HTMLElement): void {
  for (const node of card.querySelectorAll<HTMLElement>(FOCUSABLE)) node.tabIndex = -1;
}

/**
 * Moves focus one step along [the card, ...its controls]: Right goes deeper, Left back, ending
 * on the card itself. Returns whether it moved.
 */
export function stepWithinCard(card: HTMLElement, step: 1 | -1): boolean {
  const stops = [card, ...controlsOf(card)];
  const at = stops.findIndex((node) => node === document.activeElement);
  const next = stops[Math.min(stops.length - 1, Math.max(0, (at < 0 ? 0 : at) + step))];
  if (!next || next === document.activeElement) return false;
  next.focus();
  return true;
}
