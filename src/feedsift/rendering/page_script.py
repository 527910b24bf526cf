"""The page-side JavaScript that measures every marked block (run by Playwright's
``page.evaluate`` with one argument, the ``arg`` of :func:`measure_argument`).

For each owner element (``[data-fs-b]``) the script splits the owner's own text into groups
the way :func:`feedsift.parsing.blocks.text_blocks` splits it into blocks (cut by ``<br>``
and nested block elements, inline tags walked through, dropped tags skipped) and matches
the groups to the owner's blocks in order by their text without spaces. It returns one
row per block (``null`` for a block whose owner the browser's DOM no longer has),

``[x, y, width, height, font_px, bold, visible, text_rgba(4), background_rgb(3), kind,
owner_x, owner_width]``

in CSS pixels of the document (``kind``: 0 the owner's box, 1 the box of the block's own
text (a DOM Range), 2 the owner's box because the text did not match; the owner's
horizontal extent, cut to its scrolling or clipping ancestors, is what the main column is
found from; ``visible``: 1 shown, 0 not, 2 *faded*: shown but for ``opacity:0`` on it or
an ancestor, which :mod:`~feedsift.rendering.measure` decides for the whole page). Font
size and weight are those carrying most of the block's characters; the background is the
nearest ancestor background colour, composited over white.

With the rows comes one ``separators`` entry per block: 1 when a visual separator
lies between the block before it (in document order) and it, else 0. A separator is an
``<hr>``, the bottom border of a block-level element that ends between the two blocks or
the top border of one that starts between them (drawn, at least ``minBorderPx`` wide, on a
box at least ``separatorMinShare`` of the wider block's width: a bordered link or a
``<code>`` inside a paragraph is no separator). One walk in document order from each
block's last text node to the next block's first, so all the walks together pass over the
page once (``separatorMs`` is their time).

Before measuring, the script waits for web fonts (at most ``fontWaitMs``) and *settles*
the page: every running animation and transition (``document.getAnimations()``: CSS
animations, CSS transitions, script-made Web Animations) is finished, an endless one
cancelled, for up to ``settleRounds`` rounds a frame apart (ending one may start
another). Finishing rather than switching animations off with an injected
``animation:none``: a fade-in written as ``opacity:0`` plus an animation that ends at 1
with ``forwards`` would stay at 0 without its animation, whereas ``finish()`` gives the
end state whichever way the stylesheet is written.
"""

from __future__ import annotations

__all__ = ["MEASURE_SCRIPT"]

MEASURE_SCRIPT = r"""
async (arg) => {
  const started = performance.now();
  if (document.fonts && document.fonts.status !== 'loaded') {
    await Promise.race([document.fonts.ready,
                        new Promise((done) => setTimeout(done, arg.fontWaitMs))]);
  }
  // Settle the page: every CSS animation and transition (and script-made animation) jumps
  // to its end state, as a reader sees it once it has run; one without an end (infinite)
  // is cancelled, back to the element's own style. Ending one may start another
  // (animationend handlers, chained transitions), hence a few rounds a frame apart.
  for (let round = 0; round < arg.settleRounds; round++) {
    const running = document.getAnimations().filter((a) => a.playState !== 'finished');
    if (!running.length) break;
    for (const a of running) {
      try { a.finish(); } catch (e) { a.cancel(); }
    }
    await new Promise((done) => {
      requestAnimationFrame(() => done()); setTimeout(done, arg.frameWaitMs);
    });
  }
  const INLINE = new Set(arg.inlineTags), SKIP = new Set(arg.skipTags);
  const compact = (s) => s.replace(/\s+/g, '');
  const styles = new Map();
  const css = (el) => {
    let s = styles.get(el);
    if (!s) { s = getComputedStyle(el); styles.set(el, s); }
    return s;
  };
  const root = document.documentElement, body = document.body || root;
  const sx = window.scrollX, sy = window.scrollY;
  const docW = Math.max(root.scrollWidth, body.scrollWidth);
  const docH = Math.max(root.scrollHeight, body.scrollHeight);

  function ownGroups(owner) {
    const groups = []; let current = []; let nested = false;
    const cut = () => { if (current.length) { groups.push(current); current = []; } };
    (function walk(node) {
      for (let c = node.firstChild; c; c = c.nextSibling) {
        if (c.nodeType === 3) { current.push(c); continue; }
        if (c.nodeType !== 1) continue;
        const tag = c.localName;
        if (SKIP.has(tag)) continue;
        if (tag === 'br') { cut(); continue; }
        if (INLINE.has(tag)) { walk(c); continue; }
        cut();
        if (c.textContent.trim()) nested = true;
      }
    })(owner);
    cut();
    return {groups: groups.filter((g) => compact(g.map((t) => t.data).join('')) !== ''),
            nested};
  }

  function textRect(nodes) {
    const range = document.createRange();
    range.setStart(nodes[0], 0);
    const last = nodes[nodes.length - 1];
    range.setEnd(last, last.length);
    return range.getBoundingClientRect();
  }

  let canvas = null;
  function rgba(value) {
    const m = /^rgba?\(([^)]*)\)$/.exec(value);
    if (m) {
      const p = m[1].split(/[\s,\/]+/).filter(Boolean).map(parseFloat);
      return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
    }
    if (!canvas) {
      const c = document.createElement('canvas'); c.width = c.height = 1;
      canvas = c.getContext('2d', {willReadFrequently: true});
    }
    canvas.clearRect(0, 0, 1, 1); canvas.fillStyle = value; canvas.fillRect(0, 0, 1, 1);
    const d = canvas.getImageData(0, 0, 1, 1).data;
    return [d[0], d[1], d[2], d[3] / 255];
  }

  const backgrounds = new Map();
  function background(el) {
    if (!el) return [255, 255, 255];
    if (backgrounds.has(el)) return backgrounds.get(el);
    const [r, g, b, a] = rgba(css(el).backgroundColor);
    let found;
    if (a >= 1) found = [r, g, b];
    else {
      const under = background(el.parentElement);
      found = a <= 0 ? under : [0, 1, 2].map((i) => [r, g, b][i] * a + under[i] * (1 - a));
    }
    backgrounds.set(el, found);
    return found;
  }

  // 2: shown; 1: hidden by opacity alone (on it or an ancestor); 0: hidden otherwise
  // (display, visibility, content-visibility).
  const shownCache = new Map();
  function shown(el) {
    while (el && el !== root && css(el).display === 'contents') el = el.parentElement;
    if (!el) return 0;
    if (shownCache.has(el)) return shownCache.get(el);
    let v = 2;
    if (el.checkVisibility) {
      const laidOut = el.checkVisibility({visibilityProperty: true, checkVisibilityCSS: true});
      v = !laidOut ? 0 : el.checkVisibility({opacityProperty: true, checkOpacity: true}) ? 2 : 1;
    }
    shownCache.set(el, v);
    return v;
  }

  // The rectangle an element's content is cut to by its ancestors' overflow (hidden and
  // clip; with `scrolling` also auto and scroll) and `clip`, or null when nothing cuts it.
  const clips = [new Map(), new Map()];
  function clipOf(el, scrolling = false) {
    if (!el || el === root || el === body) return null;
    const cache = clips[scrolling ? 1 : 0];
    if (cache.has(el)) return cache.get(el);
    let clip = clipOf(el.parentElement, scrolling);
    const s = css(el);
    const cuts = (v) => v === 'hidden' || v === 'clip' ||
                        (scrolling && (v === 'auto' || v === 'scroll'));
    // each axis cuts on its own: overflow-x:hidden with overflow-y:auto is a scroller
    // whose content below the fold a reader reaches
    if (cuts(s.overflowX) || cuts(s.overflowY)) {
      const r = el.getBoundingClientRect();
      clip = meet(clip, {left: cuts(s.overflowX) ? r.left : -Infinity,
                         right: cuts(s.overflowX) ? r.right : Infinity,
                         top: cuts(s.overflowY) ? r.top : -Infinity,
                         bottom: cuts(s.overflowY) ? r.bottom : Infinity});
    }
    if (s.clip !== 'auto' && (s.position === 'absolute' || s.position === 'fixed')) {
      const p = s.clip.match(/-?[\d.]+/g) || [];
      if (p.length === 4 && (+p[1] - +p[3] < arg.minSizePx || +p[2] - +p[0] < arg.minSizePx)) {
        clip = {left: 0, top: 0, right: 0, bottom: 0};
      }
    }
    cache.set(el, clip);
    return clip;
  }
  // Whether an ancestor below the body scrolls (overflow auto or scroll): content beyond
  // the document's own scroll size is then reached by scrolling that ancestor.
  const scrollers = new Map();
  function inScroller(el) {
    if (!el || el === root || el === body) return false;
    if (scrollers.has(el)) return scrollers.get(el);
    const s = css(el);
    const scrolls = (v) => v === 'auto' || v === 'scroll';
    const v = scrolls(s.overflowX) || scrolls(s.overflowY) || inScroller(el.parentElement);
    scrollers.set(el, v);
    return v;
  }
  function meet(a, b) {
    if (!a) return {left: b.left, top: b.top, right: b.right, bottom: b.bottom};
    return {left: Math.max(a.left, b.left), top: Math.max(a.top, b.top),
            right: Math.min(a.right, b.right), bottom: Math.min(a.bottom, b.bottom)};
  }

  function textStyle(nodes, owner) {
    const chars = new Map();
    for (const t of nodes) {
      const el = t.parentElement || owner;
      chars.set(el, (chars.get(el) || 0) + compact(t.data).length);
    }
    if (!chars.size) chars.set(owner, 1);
    const sizes = new Map();
    let bold = 0, total = 0, seen = 0, laidOut = 0, main = owner, most = -1;
    for (const [el, n] of chars) {
      const s = css(el);
      const size = parseFloat(s.fontSize);
      sizes.set(size, (sizes.get(size) || 0) + n);
      if (parseFloat(s.fontWeight) >= arg.boldWeight) bold += n;
      const v = shown(el);
      if (v === 2) seen += n;
      if (v >= 1) laidOut += n;
      total += n;
      if (n > most) { most = n; main = el; }
    }
    let size = 0, votes = -1;
    for (const [s, n] of sizes) if (n > votes) { size = s; votes = n; }
    return {size, bold: bold * 2 > total, seenShare: total ? seen / total : 0,
            laidOutShare: total ? laidOut / total : 0, main};
  }

  // 1: shown; 2: shown but for opacity 0 (faded); 0: not shown.
  function visible(style, rect, clipEl) {
    if (rect.width < arg.minSizePx || rect.height < arg.minSizePx) return 0;
    if (rect.right + sx <= 0 || rect.bottom + sy <= 0) return 0;
    if (!inScroller(clipEl) && (rect.left + sx >= docW || rect.top + sy >= docH)) return 0;
    const clip = clipOf(clipEl);
    if (clip) {
      const m = meet(clip, rect);
      if (m.right - m.left < arg.minSizePx || m.bottom - m.top < arg.minSizePx) return 0;
    }
    if (style.seenShare >= arg.minShownShare) return 1;
    return style.laidOutShare >= arg.minShownShare ? 2 : 0;
  }

  function row(owner, nodes, kind) {
    const style = textStyle(nodes, owner);
    const ownerRect = owner.getBoundingClientRect();
    const textBox = nodes.length ? textRect(nodes) : ownerRect;
    const shownRect = kind === 2 ? ownerRect : textBox;
    const rect = kind === 1 ? textBox : ownerRect;
    const text = rgba(css(style.main).color);
    const seen = text[3] > 0 ? visible(style, shownRect, style.main) : 0;
    const ownerClip = clipOf(owner, true);
    const shownOwner = ownerClip ? meet(ownerClip, ownerRect) : ownerRect;
    return [rect.left + sx, rect.top + sy, rect.width, rect.height, style.size,
            style.bold ? 1 : 0, seen, ...text, ...background(style.main), kind,
            shownOwner.left + sx, Math.max(0, shownOwner.right - shownOwner.left)];
  }

  // A visible horizontal rule of a block-level element: its top or bottom border (1 px at
  // least, drawn, not transparent), on a box at least `wide` px wide.
  function edge(el, side, wide) {
    const s = css(el), display = s.display;
    if (display === 'none' || display === 'contents' || display.startsWith('inline')) return false;
    const style = s['border' + side + 'Style'];
    if (style === 'none' || style === 'hidden' || s.visibility !== 'visible') return false;
    if (parseFloat(s['border' + side + 'Width']) < arg.minBorderPx) return false;
    if (rgba(s['border' + side + 'Color'])[3] <= 0) return false;
    const r = el.getBoundingClientRect();
    return r.width >= wide && r.height > 0;
  }
  function rule(el, wide) {
    const s = css(el);
    if (s.display === 'none' || s.visibility !== 'visible') return false;
    const r = el.getBoundingClientRect();
    return r.width >= wide && r.height > 0;
  }
  // Whether a separator lies between the end of one block (its last text node `last`) and
  // the start of the next (`first`): an <hr>, the bottom border of an element that ends
  // between them, the top border of one that starts between them. One walk in document
  // order from `last` to `first`, so all the walks together pass over the page once.
  function separated(last, first, wide) {
    if (!(last.compareDocumentPosition(first) & Node.DOCUMENT_POSITION_FOLLOWING)) return 0;
    if (last.nodeType === 1 && last.contains(first)) return 0;
    let n = last, leaving = true;
    for (let step = 0; step < arg.maxWalkSteps; step++) {
      if (leaving) {
        if (n.nodeType === 1 && edge(n, 'Bottom', wide)) return 1;
        if (n.nextSibling) { n = n.nextSibling; leaving = false; continue; }
        n = n.parentNode;
        if (!n || n === root) return 0;
        continue;
      }
      if (n === first) return n.nodeType === 1 && edge(n, 'Top', wide) ? 1 : 0;
      if (n.nodeType === 1) {
        if (n.localName === 'hr' ? rule(n, wide) : edge(n, 'Top', wide)) return 1;
        if (n.firstChild && (n.contains(first) || !SKIP.has(n.localName))) {
          n = n.firstChild; continue;
        }
      }
      leaving = true;
    }
    return 0;
  }

  const rows = new Array(arg.texts.length).fill(null);
  const ends = new Array(arg.texts.length).fill(null);
  const ending = (nodes, owner) => nodes.length ? [nodes[0], nodes[nodes.length - 1]]
                                                : [owner, owner];
  for (const owner of document.querySelectorAll('[' + arg.markAttr + ']')) {
    const ids = owner.getAttribute(arg.markAttr).split(' ').map(Number);
    const {groups, nested} = ownGroups(owner);
    const whole = ids.length === 1 && groups.length === 1 && !nested;
    let g = 0;
    for (const id of ids) {
      const want = compact(arg.texts[id] || '');
      let at = g;
      while (at < groups.length && compact(groups[at].map((t) => t.data).join('')) !== want) at++;
      if (at < groups.length) {
        rows[id] = row(owner, groups[at], whole ? 0 : 1);
        ends[id] = ending(groups[at], owner);
        g = at + 1;
      } else {
        rows[id] = row(owner, groups.flat(), 2);
        ends[id] = ending(groups.flat(), owner);
      }
    }
  }
  const measured = performance.now() - started;
  // separators[i]: one lies between block i - 1 and block i (0 for the first block)
  const separators = new Array(arg.texts.length).fill(0);
  for (let i = 1; i < ends.length; i++) {
    if (!ends[i - 1] || !ends[i]) continue;
    const wide = arg.separatorMinShare * Math.max(rows[i - 1][2], rows[i][2]);
    separators[i] = separated(ends[i - 1][1], ends[i][0], wide);
  }
  return {rows, separators, width: docW, height: docH, ms: performance.now() - started,
          separatorMs: performance.now() - started - measured};
}
"""
