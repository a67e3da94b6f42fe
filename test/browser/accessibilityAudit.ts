// The measuring half of test/browser/accessibility.test.ts: runs inside the page and returns
// what fails WCAG 1.4.3 (contrast, AA) and 2.5.8 (target size, minimum).
import type { Page } from 'playwright-core';

export interface Failure {
  kind: 'contrast' | 'target';
  /** A short description of the element: tag, classes, test id and text. */
  element: string;
  detail: string;
  page?: string;
  theme?: string;
  viewport?: string;
}

/** Everything below runs in the browser: no imports, only what the function itself defines. */
function audit(): { failures: Array<{ kind: 'contrast' | 'target'; element: string; detail: string }>; texts: number; targets: number } {
  type Rgba = [number, number, number, number];
  const found: Array<{ kind: 'contrast' | 'target'; element: string; detail: string }> = [];

  const parse = (value: string): Rgba | null => {
    const match = /rgba?\(([^)]+)\)/.exec(value);
    if (!match) return null;
    const parts = match[1]!
      .split(/[\s,/]+/)
      .filter(Boolean)
      .map(Number);
    return [parts[0]!, parts[1]!, parts[2]!, parts[3] ?? 1];
  };
  // Colours of the form color(srgb r g b / a) (from color-mix) are 0-1 floats.
  const parseAny = (value: string): Rgba | null => {
    const srgb = /color\(srgb ([^)]+)\)/.exec(value);
    if (srgb) {
      const parts = srgb[1]!
        .split(/[\s/]+/)
        .filter(Boolean)
        .map(Number);
      return [parts[0]! * 255, parts[1]! * 255, parts[2]! * 255, parts[3] ?? 1];
    }
    return parse(value);
  };
  const over = (top: Rgba, bottom: Rgba): Rgba => {
    const a = top[3];
    return [top[0] * a + bottom[0] * (1 - a), top[1] * a + bottom[1] * (1 - a), top[2] * a + bottom[2] * (1 - a), 1];
  };
  const luminance = ([r, g, b]: Rgba) => {
    const channel = (c: number) => {
      const s = c / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  };
  const ratio = (a: Rgba, b: Rgba) => {
    const [l1, l2] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (l1! + 0.05) / (l2! + 0.05);
  };
  const describe = (element: Element) => {
    const classes = typeof element.className === 'string' && element.className ? `.${element.className.trim().split(/\s+/).join('.')}` : '';
    const testId = element.getAttribute('data-testid');
    const text = (element.textContent ?? (element as HTMLInputElement).value ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
    return `<${element.tagName.toLowerCase()}${classes}${testId ? ` [${testId}]` : ''}> "${text}"`;
  };
  const visible = (element: Element) => {
    const rect = element.getBoundingClientRect();
    if (rect.width < 2 || rect.height < 2) return false;
    const style = getComputedStyle(element);
    if (style.visibility !== 'visible' || style.display === 'none') return false;
    // Visually hidden text (screen readers only) is clipped to a pixel.
    for (let node: Element | null = element; node; node = node.parentElement) {
      const s = getComputedStyle(node);
      if (s.clip === 'rect(0px, 0px, 0px, 0px)' || s.clipPath === 'inset(50%)' || Number(s.opacity) === 0) return false;
    }
    return true;
  };
  /** The background a piece of text is painted on: translucent layers over the first opaque one. */
  const background = (element: Element): Rgba | 'image' => {
    const layers: Rgba[] = [];
    for (let node: Element | null = element; node; node = node.parentElement) {
      const style = getComputedStyle(node);
      if (style.backgroundImage !== 'none' && !style.backgroundImage.startsWith('url(')) return 'image';
      const colour = parseAny(style.backgroundColor);
      if (colour && colour[3] > 0) {
        layers.push(colour);
        if (colour[3] >= 1) break;
      }
    }
    let result: Rgba = [255, 255, 255, 1];
    const root = parseAny(getComputedStyle(document.documentElement).backgroundColor);
    if (root && root[3] >= 1) result = root;
    for (const layer of layers.reverse()) result = layer[3] >= 1 ? layer : over(layer, result);
    return result;
  };
  const opacity = (element: Element) => {
    let value = 1;
    for (let node: Element | null = element; node; node = node.parentElement) value *= Number(getComputedStyle(node).opacity);
    return value;
  };
  const inactive = (element: Element) => element.closest(':disabled, [aria-disabled=true], [inert]') !== null;

  // Contrast: every element with text of its own, and every field's typed value.
  const checked = new Set<Element>();
  const textElements: Element[] = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || checked.has(parent) || !node.textContent?.trim()) continue;
    if (parent.closest('script, style, noscript, option, svg, canvas')) continue;
    checked.add(parent);
    textElements.push(parent);
  }
  for (const field of document.querySelectorAll(
    'input:not([type=checkbox], [type=radio], [type=range], [type=file], [type=hidden], [type=color]), select, textarea',
  )) {
    if ((field as HTMLInputElement).value) textElements.push(field);
  }
  let texts = 0;
  for (const element of textElements) {
    if (!visible(element) || inactive(element)) continue;
    const style = getComputedStyle(element);
    const bg = background(element);
    if (bg === 'image') continue;
    const fg = parseAny(style.color);
    if (!fg) continue;
    texts++;
    const alpha = fg[3] * opacity(element);
    const painted = over([fg[0], fg[1], fg[2], alpha], bg);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    const needed = large ? 3 : 4.5;
    const measured = ratio(painted, bg);
    if (measured + 0.005 < needed) {
      found.push({
        kind: 'contrast',
        element: describe(element),
        detail: `${measured.toFixed(2)}:1 < ${needed}:1 (${style.color} on rgb(${bg.slice(0, 3).map(Math.round).join(' ')}))`,
      });
    }
  }

  // Target size: 24x24 px, or no other target within a 24 px circle around a smaller one.
  const targets = [...document.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button]')].filter(
    (element) => visible(element) && !inactive(element),
  );
  const boxes = targets.map((element) => ({ element, rect: element.getBoundingClientRect() }));
  const small = (rect: DOMRect) => rect.width < 23.95 || rect.height < 23.95;
  const centre = (rect: DOMRect) => ({ x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 });
  const distanceToRect = (point: { x: number; y: number }, rect: DOMRect) => {
    const dx = Math.max(rect.left - point.x, 0, point.x - rect.right);
    const dy = Math.max(rect.top - point.y, 0, point.y - rect.bottom);
    return Math.hypot(dx, dy);
  };
  /** WCAG's inline exception: a link inside a sentence, sized by the line of text around it. */
  const inline = (element: Element) => {
    if (element.tagName !== 'A' || getComputedStyle(element).display !== 'inline') return false;
    const block = element.parentElement;
    return !!block && (block.textContent ?? '').trim().length > (element.textContent ?? '').trim().length;
  };
  for (const { element, rect } of boxes) {
    if (!small(rect) || inline(element)) continue;
    const point = centre(rect);
    const crowded = boxes.find(({ element: other, rect: otherRect }) => {
      if (other === element || other.contains(element) || element.contains(other)) return false;
      return small(otherRect) ? Math.hypot(centre(otherRect).x - point.x, centre(otherRect).y - point.y) < 24 : distanceToRect(point, otherRect) < 12;
    });
    if (crowded) {
      found.push({
        kind: 'target',
        element: describe(element),
        detail: `${rect.width.toFixed(1)}x${rect.height.toFixed(1)} px, too close to ${describe(crowded.element)}`,
      });
    }
  }
  return { failures: found, texts, targets: targets.length };
}

/** What fails on the page as it is now; throws when it found nothing to measure (a blank page). */
export async function auditPage(page: Page): Promise<Failure[]> {
  // tsx compiles with keepNames, which wraps inner functions in a __name helper the page lacks.
  await page.evaluate('globalThis.__name ??= (fn) => fn');
  const { failures, texts, targets } = await page.evaluate(audit);
  if (texts < 5 || targets < 3) throw new Error(`only ${texts} texts and ${targets} targets measured on ${page.url()}`);
  return failures;
}
