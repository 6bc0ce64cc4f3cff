// Pan and zoom of a board drawn as one SVG, for every game's board: drag with a finger or the
// mouse to pan, pinch with two fingers or turn the mouse wheel to zoom, the + / − buttons zoom
// around the middle and ⤢ shows the whole board again (a double-click too, where a board asks
// for it). It moves the SVG's viewBox, so lines and text stay sharp at any zoom and a board
// can ask where a screen point lies on it (`clientToBoard`) or how big a pixel is
// (`unitsPerPixel`). A press that does not move stays a click (selecting a piece, placing a
// tile); one that moved is a pan, and its click is swallowed.
//
// The board says what "the whole board" is (`extent`, read again at each fit: a Carcassonne
// board grows), how far one may zoom (`limits`), whether the view must stay on the board
// (`bounded`) and what to do when the view changes (`onView`: Rise of the Shogun lays its
// province labels out again for each zoom). Until the user moves the view, `refresh` fits the
// board after each redraw; afterwards it keeps the user's view.

import {el} from './util.js';

const DRAG = 6;  // pixels a press may move and still be a click
const WHEEL = 0.0015;  // zoom per wheel pixel (exponential: the same turn zooms the same)
const STEP = 1.4;  // one press of + or −

/** `[x, y, w, h]` of the default extent: the viewBox the SVG was given, else 100 x 100. */
function ownBox(target) {
  const box = target.viewBox && target.viewBox.baseVal;
  return box && box.width ? [box.x, box.y, box.width, box.height] : [0, 0, 100, 100];
}

export class PanZoom {
  /**
   * @param svg the board's SVG element; the buttons go into its parent (or `options.controls`)
   * @param options {extent(): [x, y, w, h], limits([x, y, w, h]): [min width, max width],
   *   bounded: bool, onView(view, pxPerUnit), dblclickFits: bool, fitTitle: string}
   */
  constructor(svg, options = {}) {
    this.svg = svg;
    this.extent = options.extent || (() => ownBox(svg));
    this.limits = options.limits || ((e) => [e[2] / 6, e[2]]);
    this.bounded = Boolean(options.bounded);
    this.onView = options.onView || null;
    this.view = null;  // [x, y, w, h]: the viewBox shown
    this.userMoved = false;  // the user panned or zoomed since the last fit
    this.pointers = new Map();  // pointerId -> [clientX, clientY]
    this.start = null;  // the gesture's beginning: {view, points, rect}
    this.moved = false;
    svg.style.touchAction = 'none';
    svg.addEventListener('pointerdown', (e) => this.down(e));
    svg.addEventListener('pointermove', (e) => this.move(e));
    for (const type of ['pointerup', 'pointercancel']) svg.addEventListener(type, (e) => this.up(e));
    svg.addEventListener('click', (e) => {  // the click that ends a pan selects nothing
      if (this.moved) {
        e.stopPropagation();
        e.preventDefault();
        this.moved = false;
      }
    }, true);
    svg.addEventListener('wheel', (e) => {
      e.preventDefault();
      this.zoomAround(Math.exp(-e.deltaY * WHEEL), e.clientX, e.clientY);
    }, {passive: false});
    if (options.dblclickFits) svg.addEventListener('dblclick', () => this.fit());
    this.controls = el('div', {class: 'board-zoom', role: 'group', 'aria-label': 'Zoom'},
      el('button', {type: 'button', testid: 'zoom-in', title: 'Zoom in (or the mouse wheel, or pinch)',
        onclick: () => this.zoomBy(STEP)}, '+'),
      el('button', {type: 'button', testid: 'zoom-out', title: 'Zoom out',
        onclick: () => this.zoomBy(1 / STEP)}, '−'),
      el('button', {type: 'button', testid: 'zoom-fit', title: options.fitTitle || 'Show the whole board',
        onclick: () => this.fit()}, '⤢'));
    (options.controls || svg.parentElement).append(this.controls);
    if (typeof ResizeObserver !== 'undefined') {
      new ResizeObserver(() => this.apply()).observe(svg);
    }
  }

  // -- geometry -------------------------------------------------------------------------------

  /** Screen pixels per board unit of a view (the SVG keeps its aspect: "meet"). */
  pxPerUnit(view = this.view) {
    const rect = this.svg.getBoundingClientRect();
    if (!view || !rect.width || !rect.height) return 1;
    return Math.min(rect.width / view[2], rect.height / view[3]);
  }

  unitsPerPixel() {
    return 1 / this.pxPerUnit();
  }

  /** The board point under a screen point, in `view` (the current one by default). */
  clientToBoard(cx, cy, view = this.view) {
    if (!view) return null;
    const rect = this.svg.getBoundingClientRect();
    const s = this.pxPerUnit(view);
    const offX = (rect.width - view[2] * s) / 2;
    const offY = (rect.height - view[3] * s) / 2;
    return [view[0] + (cx - rect.left - offX) / s, view[1] + (cy - rect.top - offY) / s];
  }

  /** A view of width `w` (height in proportion to `base`) with board point `p` under screen
   *  point (cx, cy). */
  placed(base, w, p, cx, cy) {
    const view = [0, 0, w, base[3] * w / base[2]];
    const [x, y] = this.clientToBoard(cx, cy, view);
    return [p[0] - x, p[1] - y, view[2], view[3]];
  }

  clampWidth(w) {
    const [low, high] = this.limits(this.extent());
    return Math.min(high, Math.max(low, w));
  }

  // -- changing the view ------------------------------------------------------------------------

  /** Show the whole board (and forget the user's view). */
  fit() {
    this.userMoved = false;
    this.view = [...this.extent()];
    this.apply();
  }

  /** After a redraw: fit the board until the user moved it, else keep their view. */
  refresh() {
    if (!this.userMoved || !this.view) this.fit();
    else this.apply();
  }

  /** Zoom in by `factor` (below 1: out) around the middle of the view. */
  zoomBy(factor) {
    if (!this.view) return;
    const [x, y, w, h] = this.view;
    this.zoomAt(factor, x + w / 2, y + h / 2);
  }

  /** Zoom in by `factor` keeping the board point (px, py) where it is on screen. */
  zoomAt(factor, px, py) {
    if (!this.view) return;
    const [x, y, w, h] = this.view;
    const nw = this.clampWidth(w / factor);
    const k = nw / w;
    this.set([px - (px - x) * k, py - (py - y) * k, nw, h * k]);
  }

  /** Zoom in by `factor` around a screen point (the wheel's pointer). */
  zoomAround(factor, cx, cy) {
    const p = this.clientToBoard(cx, cy);
    if (p) this.zoomAt(factor, ...p);
  }

  set(view) {
    this.view = view;
    this.userMoved = true;
    this.apply();
  }

  /** Show `this.view` (kept on the board when `bounded`) and tell `onView`. */
  apply() {
    if (!this.view) return;
    if (this.bounded) {
      const [ex, ey, ew, eh] = this.extent();
      const [x, y, w, h] = this.view;
      const keep = (v, low, size, room) => (size >= room ? low + (room - size) / 2 : Math.min(low + room - size, Math.max(low, v)));
      this.view = [keep(x, ex, w, ew), keep(y, ey, h, eh), w, h];
    }
    this.svg.setAttribute('viewBox', this.view.map((n) => n.toFixed(2)).join(' '));
    this.svg.dataset.zoom = (this.extent()[2] / this.view[2]).toFixed(2);
    if (this.onView) this.onView(this.view, this.pxPerUnit());
  }

  // -- gestures ---------------------------------------------------------------------------------

  down(e) {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    if (!this.pointers.size) this.moved = false;  // a new press: a click until it moves
    this.pointers.set(e.pointerId, [e.clientX, e.clientY]);
    this.begin();
  }

  /** A gesture (re)starts whenever a finger is put down or lifted: it is measured from the
   *  fingers on the board now, so a second finger put down mid-pan turns it into a pinch. */
  begin() {
    const points = [...this.pointers.values()];
    this.start = points.length && this.view ? {view: [...this.view], points} : null;
  }

  move(e) {
    if (!this.pointers.has(e.pointerId) || !this.start) return;
    this.pointers.set(e.pointerId, [e.clientX, e.clientY]);
    const now = [...this.pointers.values()];
    const s = this.start;
    if (now.length === 1 && s.points.length === 1) {
      const dx = now[0][0] - s.points[0][0];
      const dy = now[0][1] - s.points[0][1];
      if (!this.moved && Math.hypot(dx, dy) < DRAG) return;
      if (!this.moved) this.svg.setPointerCapture(e.pointerId);
      this.moved = true;
      this.svg.classList.add('panning');
      const k = 1 / this.pxPerUnit(s.view);
      this.set([s.view[0] - dx * k, s.view[1] - dy * k, s.view[2], s.view[3]]);
    } else if (now.length >= 2 && s.points.length >= 2) {
      const [a, b] = now;
      const [a0, b0] = s.points;
      const ratio = Math.hypot(a[0] - b[0], a[1] - b[1]) / Math.max(1, Math.hypot(a0[0] - b0[0], a0[1] - b0[1]));
      const mid = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
      const mid0 = [(a0[0] + b0[0]) / 2, (a0[1] + b0[1]) / 2];
      // the board point under the fingers' first midpoint follows the midpoint
      const p = this.clientToBoard(mid0[0], mid0[1], s.view);
      this.moved = true;
      this.set(this.placed(s.view, this.clampWidth(s.view[2] / ratio), p, mid[0], mid[1]));
    }
  }

  up(e) {
    if (!this.pointers.delete(e.pointerId)) return;
    if (!this.pointers.size) this.svg.classList.remove('panning');
    this.begin();
  }
}
