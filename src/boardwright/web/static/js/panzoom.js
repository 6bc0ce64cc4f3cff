// Pan and zoom for a board drawn as one element (an SVG) inside a box: drag with a finger or
// the mouse to pan, pinch with two fingers or turn the mouse wheel to zoom, double-click (or
// the ⤢ button) to fit again. It moves the board with a CSS transform, so a renderer may
// redraw and reset its own viewBox at every frame without losing the view. A press that does
// not move stays a click (selecting a piece, a space); one that moved is a pan and its click
// is swallowed. The Carcassonne renderer has its own pan and zoom (its board grows without
// bound); the table uses this one for the other games' boards.

import {el} from './util.js';

const DRAG = 6;  // pixels a press may move and still be a click
const MIN_SCALE = 1;
const MAX_SCALE = 6;

const clamp = (value, low, high) => Math.min(high, Math.max(low, value));

export class PanZoom {
  constructor(box, target) {
    this.box = box;
    this.target = target;
    this.x = 0;
    this.y = 0;
    this.k = 1;
    this.pointers = new Map();  // pointerId -> {x, y}
    this.start = null;  // the gesture's beginning: {x, y, k, points}
    this.moved = false;
    target.style.transformOrigin = '0 0';
    target.style.touchAction = 'none';
    box.style.overflow = 'hidden';
    box.style.touchAction = 'none';
    box.dataset.zoom = '1';
    box.addEventListener('pointerdown', (e) => this.down(e));
    box.addEventListener('pointermove', (e) => this.move(e));
    for (const type of ['pointerup', 'pointercancel', 'pointerleave']) {
      box.addEventListener(type, (e) => this.up(e));
    }
    box.addEventListener('click', (e) => {  // the click that ends a pan selects nothing
      if (this.moved && !(e.target.closest && e.target.closest('.board-zoom'))) {
        e.stopPropagation();
        e.preventDefault();
        this.moved = false;
      }
    }, true);
    box.addEventListener('wheel', (e) => {
      e.preventDefault();
      this.zoomAt(Math.exp(-e.deltaY * 0.0015), ...this.local(e.clientX, e.clientY));
    }, {passive: false});
    box.addEventListener('dblclick', () => this.fit());
    this.controls = el('div', {class: 'board-zoom'},
      el('button', {type: 'button', testid: 'board-zoom-in', title: 'Zoom in',
        onclick: () => this.zoomAt(1.4, ...this.centre())}, '+'),
      el('button', {type: 'button', testid: 'board-zoom-out', title: 'Zoom out',
        onclick: () => this.zoomAt(1 / 1.4, ...this.centre())}, '−'),
      el('button', {type: 'button', testid: 'board-zoom-fit', title: 'Show the whole board',
        onclick: () => this.fit()}, '⤢'));
    box.append(this.controls);
  }

  local(clientX, clientY) {
    const r = this.box.getBoundingClientRect();
    return [clientX - r.left, clientY - r.top];
  }

  centre() {
    return [this.box.clientWidth / 2, this.box.clientHeight / 2];
  }

  down(e) {
    if (!this.pointers.size) this.moved = false;  // a new press: a click until it moves
    if (e.target.closest && e.target.closest('.board-zoom')) return;
    this.pointers.set(e.pointerId, this.local(e.clientX, e.clientY));
    this.begin();
  }

  /** A gesture (re)starts whenever a finger is put down or lifted: its state is measured from
   * the fingers on the board now, so adding a second finger mid-pan turns it into a pinch. */
  begin() {
    const points = [...this.pointers.values()];
    this.start = points.length ? {x: this.x, y: this.y, k: this.k, points} : null;
  }

  move(e) {
    if (!this.pointers.has(e.pointerId) || !this.start) return;
    this.pointers.set(e.pointerId, this.local(e.clientX, e.clientY));
    const now = [...this.pointers.values()];
    const s = this.start;
    if (now.length === 1 && s.points.length === 1) {
      const dx = now[0][0] - s.points[0][0];
      const dy = now[0][1] - s.points[0][1];
      if (!this.moved && Math.hypot(dx, dy) < DRAG) return;
      this.moved = true;
      this.set(s.x + dx, s.y + dy, s.k);
    } else if (now.length >= 2 && s.points.length >= 2) {
      const [a, b] = now;
      const [a0, b0] = s.points;
      const ratio = Math.hypot(a[0] - b[0], a[1] - b[1]) / Math.max(1, Math.hypot(a0[0] - b0[0], a0[1] - b0[1]));
      const k = clamp(s.k * ratio, MIN_SCALE, MAX_SCALE);
      const mid = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
      const mid0 = [(a0[0] + b0[0]) / 2, (a0[1] + b0[1]) / 2];
      // the board point under the fingers' first midpoint follows the midpoint
      this.moved = true;
      this.set(mid[0] - (mid0[0] - s.x) * k / s.k, mid[1] - (mid0[1] - s.y) * k / s.k, k);
    }
  }

  up(e) {
    if (!this.pointers.delete(e.pointerId)) return;
    this.begin();
  }

  zoomAt(factor, px, py) {
    const k = clamp(this.k * factor, MIN_SCALE, MAX_SCALE);
    this.set(px - (px - this.x) * k / this.k, py - (py - this.y) * k / this.k, k);
  }

  fit() {
    this.set(0, 0, 1);
  }

  /** Apply a view, kept so that the board still covers the box (no panning it away). */
  set(x, y, k) {
    const w = this.box.clientWidth;
    const h = this.box.clientHeight;
    this.k = k;
    this.x = clamp(x, w - w * k, 0);
    this.y = clamp(y, h - h * k, 0);
    this.target.style.transform = `translate(${this.x}px, ${this.y}px) scale(${this.k})`;
    this.box.dataset.zoom = this.k.toFixed(2);
  }
}

/** Give a renderer's board pan and zoom, unless it has its own (`renderer.ownPanZoom`). */
export function attachPanZoom(renderer, board) {
  if (renderer.ownPanZoom) return null;
  const target = board.querySelector('svg');
  if (!target || !target.parentElement) return null;
  return new PanZoom(target.parentElement, target);
}
