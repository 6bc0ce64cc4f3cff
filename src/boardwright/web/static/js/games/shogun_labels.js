// Province labels of the Shogun map without overlaps, at any zoom.
//
// Labels keep a readable size on screen (10 to 15 px, growing slowly with the zoom), so in map
// units they shrink as the map is zoomed in. For each zoom the labels are laid out again,
// greedily, the most crowded provinces first: each label takes the first free position around
// its province (below, above, right, left, then the diagonals), then further out on rings
// with a leader line to the province, never covering another label or province disc. A label
// that finds no room (only when zoomed far out) is hidden; its province keeps its name in the
// tooltip, and zooming in shows it again.

const DIRECTIONS = [
  [0, 1], [0, -1], [1, 0], [-1, 0], [0.7071, 0.7071], [-0.7071, 0.7071], [0.7071, -0.7071], [-0.7071, -0.7071],
];
const RING_DIRECTIONS = Array.from({length: 16}, (_, i) => [Math.cos(i * Math.PI / 8), Math.sin(i * Math.PI / 8)]);

/** The label size on screen, in px, at `scale` screen px per map unit. */
export function labelPx(scale) {
  return Math.min(15, Math.max(10, 11 * Math.sqrt(scale)));
}

function rectsOverlap(a, b, margin) {
  return a.x < b.x + b.w + margin && b.x < a.x + a.w + margin && a.y < b.y + b.h + margin && b.y < a.y + a.h + margin;
}

function rectHitsCircle(r, c, margin) {
  const nx = Math.max(r.x, Math.min(c.x, r.x + r.w));
  const ny = Math.max(r.y, Math.min(c.y, r.y + r.h));
  const dx = c.x - nx;
  const dy = c.y - ny;
  return dx * dx + dy * dy < (c.r + margin) * (c.r + margin);
}

/**
 * Lay out labels. `items`: [{id, x, y, r, w, h}] (province centre and disc radius, label box
 * size, map units). `bounds`: {x, y, w, h} the boxes must stay in. `margin`: the free space
 * kept around each box. Returns Map id -> {x, y, w, h, leader} (box top-left) or null (hidden).
 */
export function layoutLabels(items, bounds, margin, rings = 7) {
  const discs = items.map((it) => ({x: it.x, y: it.y, r: it.r}));
  // crowded first: the number of provinces within reach of a label
  const reach = (it) => items.filter((o) => o !== it && Math.abs(o.x - it.x) < it.w + it.r * 2 && Math.abs(o.y - it.y) < it.h * 3 + it.r * 2).length;
  const order = items.map((it) => ({it, crowd: reach(it)})).sort((a, b) => b.crowd - a.crowd || a.it.id.localeCompare(b.it.id));
  const placed = [];
  const out = new Map();
  const step = Math.max(...items.map((it) => it.h)) * 0.9;
  const fits = (box) => box.x >= bounds.x && box.y >= bounds.y && box.x + box.w <= bounds.x + bounds.w
    && box.y + box.h <= bounds.y + bounds.h
    && !placed.some((p) => rectsOverlap(box, p, margin))
    && !discs.some((d) => rectHitsCircle(box, d, margin));
  for (const {it} of order) {
    let found = null;
    for (let ring = 0; ring <= rings && !found; ring++) {
      const d = it.r + margin + ring * step;
      for (const [ux, uy] of ring === 0 ? DIRECTIONS : RING_DIRECTIONS) {
        const cx = it.x + ux * d + ux * it.w / 2;
        const cy = it.y + uy * d + uy * it.h / 2;
        const box = {x: cx - it.w / 2, y: cy - it.h / 2, w: it.w, h: it.h};
        if (fits(box)) {
          found = {...box, leader: ring > 0};
          break;
        }
      }
    }
    if (found) placed.push(found);
    out.set(it.id, found);
  }
  return out;
}
