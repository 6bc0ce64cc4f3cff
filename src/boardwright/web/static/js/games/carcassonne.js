// Carcassonne: the board drawn from the tile geometry (static/data/carcassonne_tiles.json),
// pan and zoom (panzoom.js), the drawn tile with rotate buttons and the legal spots
// highlighted, clickable figure spots on the placed tile (follower / mayor / wagon / barn),
// pass, wagon moves, abbeys, scores and supplies, tiles left and the scoring log (the server's
// lines, games/carcassonne/texts.py); hints as numbered ghost tiles (turned as the move turns
// them) and numbered figure spots.
//
// From the game's table data (frame.table, built by games/carcassonne/outlook.py): hovering a
// figure spot lights up the whole feature it joins and the points it is worth now; the players
// panel shows each seat's score if the game ended now; the final board keeps the figures as
// they stood before the end-of-game scoring, labels each scoring on its feature and adds a
// per-player account with a chart. A tile placement waits for a confirmation unless the
// player switched that off (kept in localStorage). Monasteries are drawn upright whatever the
// tile's turn.
//
// Coordinates: a tile (x, y) is drawn at (100 x, 100 y); y grows downwards (south), as in the
// engine (the N side of (x, y) touches (x, y - 1)). Locations are the engine's strings: "N",
// "E.W", "NL.NR", "MONASTERY", barn corners "NW" / "NE" / "SE" / "SW".

import {el, svg, replace, clear, loadJson, plural} from '../util.js';
import {PanZoom} from '../panzoom.js';
import {seatOf} from '../gameinfo.js';
import {longPress} from '../longpress.js';

const T = 100;
const FIGURE_ORDER = ['follower', 'mayor', 'wagon', 'barn'];
const FIGURE_LABEL = {follower: 'Follower', mayor: 'Mayor', wagon: 'Wagon', barn: 'Barn', abbey: 'Abbey'};
const ROLE = {city: 'knight', road: 'highwayman', field: 'farmer', monastery: 'monk'};
const PROMPTS = {
  place_tile: 'place the tile: click a highlighted space (↻ turns it)',
  deploy: 'put a figure on the tile you placed, or pass',
  wagon_move: 'move your wagon to a highlighted feature, or take it back',
  choose_tile: 'draw a tile, or place your abbey in a hole',
  final_abbey_round: 'place your abbey in a hole',
};
const DATA_URL = '/static/data/carcassonne_tiles.json';
// Shapes drawn upright (not turned with their tile): the monastery and abbey buildings.
const UPRIGHT = new Set(['monastery', 'monastery-roof', 'monastery-door', 'monastery-cross',
  'abbey', 'abbey-roof', 'abbey-door', 'abbey-cross']);
const CONFIRM_KEY = 'boardwright.carcassonne.confirmPlacement';
const KINDS = ['city', 'road', 'monastery', 'field', 'barn'];
const KIND_LABEL = {city: 'City', road: 'Road', monastery: 'Monastery', field: 'Field', barn: 'Barn'};
const KIND_COLOUR = {city: '#b9793a', road: '#8a8170', monastery: '#b2452d', field: '#5d9a3a', barn: '#6d4fa3'};

/** Whether a tile placement waits for a confirmation (on unless switched off). */
export function confirmPlacement() {
  try {
    return localStorage.getItem(CONFIRM_KEY) !== 'off';
  } catch {
    return true;
  }
}

function setConfirmPlacement(on) {
  try {
    localStorage.setItem(CONFIRM_KEY, on ? 'on' : 'off');
  } catch {
    // storage refused (private mode): the choice lasts for this page only
  }
}

/** Turn a point of a tile (0..100) clockwise by `rotation` degrees around the tile centre. */
export function rotatePoint([x, y], rotation) {
  let px = x;
  let py = y;
  for (let q = 0; q < ((rotation / 90) % 4 + 4) % 4; q++) {
    [px, py] = [T - py, px];
  }
  return [px, py];
}

export function create(ctx) {
  return new CarcassonneRenderer(ctx);
}

class CarcassonneRenderer {
  constructor(ctx) {
    this.ctx = ctx;
    this.rotation = 0;
    this.figure = 'follower';
    this.pz = null;  // the board's pan and zoom (panzoom.js)
    this.frame = null;
    this.tileKey = null;
    this.hints = null;  // {step, list}: the hints of the position shown
    this.pending = null;  // {x, y, rotation, step}: a placement waiting for its confirmation
    this.confirm = confirmPlacement();
  }

  async init() {
    this.data = await loadJson(DATA_URL);
    this.buildBoard();
    this.buildPanel();
  }

  /** A seat's colour and name: the game's seat table, from the server (`ctx.info`). */
  seatColour(seat) {
    return seatOf(this.ctx.info, seat).colour;
  }

  seatName(seat) {
    return seatOf(this.ctx.info, seat).name;
  }

  /** Who holds a seat, for the score table, the scorings and the account (people.js): the
   *  player's name or the bot's label; the seat's own name on a page that knows no people. */
  personName(seat) {
    return this.ctx.people ? this.ctx.people.name(seat) : this.seatName(seat);
  }

  /** A seat in a line: a swatch of its colour and who holds it. */
  personTag(seat) {
    if (this.ctx.people) return this.ctx.people.tag(seat);
    return [el('span', {class: 'swatch', style: `background:${this.seatColour(seat)}`}), ` ${this.seatName(seat)}`];
  }

  /** A scoring's line (the game's `text`, and its `words` whose seats are named here), as
   *  nodes or as plain text. */
  scoringNodes(s) {
    return this.ctx.people ? this.ctx.people.sentence(s) : s.text;
  }

  scoringText(s) {
    return this.ctx.people ? this.ctx.people.text(s) : s.text;
  }

  prompt(frame) {
    return PROMPTS[frame.view.phase] || '';
  }

  finalNote(frame) {
    const v = frame.view;
    return `${plural(v.board.length, 'tile')} on the table.`;
  }

  // -- building the DOM --------------------------------------------------------------------------

  buildBoard() {
    const board = this.ctx.board;
    clear(board);
    this.svg = svg('svg', {class: 'cc-board', testid: 'board', role: 'img',
      'aria-label': 'Carcassonne board'});
    const defs = svg('defs');
    this.upright = new Set();
    for (const [name, tile] of Object.entries(this.data.tiles)) {
      defs.append(...this.tileSymbols(name, tile));
    }
    defs.append(
      svg('symbol', {id: 'cc-meeple', viewBox: '-12 -13 24 26', overflow: 'visible'},
        svg('path', {d: 'M0,-12 C4,-12 5,-9 5,-7 C5,-5 4,-4 3,-3 L10,0 C12,1 12,4 10,4 L5,3 L8,11 L2,11 L0,6 L-2,11 L-8,11 L-5,3 L-10,4 C-12,4 -12,1 -10,0 L-3,-3 C-4,-4 -5,-5 -5,-7 C-5,-9 -4,-12 0,-12 Z'})),
      svg('symbol', {id: 'cc-wagon', viewBox: '-13 -11 26 22', overflow: 'visible'},
        svg('path', {d: 'M-12,-6 L12,-6 L10,4 L-10,4 Z M-8,-10 L8,-10 L10,-6 L-10,-6 Z'}),
        svg('circle', {cx: -6, cy: 6, r: 4}), svg('circle', {cx: 6, cy: 6, r: 4})),
      svg('symbol', {id: 'cc-barn', viewBox: '-13 -13 26 26', overflow: 'visible'},
        svg('path', {d: 'M-11,11 L-11,-3 L0,-12 L11,-3 L11,11 Z'})),
    );
    this.svg.append(defs);
    this.layers = {};
    for (const name of ['tiles', 'marks', 'highlight', 'figures', 'labels', 'pending', 'ghost', 'spots',
      'hints', 'tip']) {
      this.layers[name] = svg('g', {class: `cc-layer-${name}`});
      this.svg.append(this.layers[name]);
    }
    board.append(el('div', {class: 'cc-board-wrap'}, this.svg));
    // a board without bounds: "the whole board" is the tiles and the spaces to play
    this.pz = new PanZoom(this.svg, {extent: () => this.extent(), limits: () => [150, 8000]});
  }

  /** The tile's drawing as a symbol turned with the tile, and its buildings (monastery,
   *  abbey) as a second symbol drawn upright on top. */
  tileSymbols(name, tile) {
    const symbol = svg('symbol', {id: `cc-tile-${name}`, viewBox: '0 0 100 100'});
    const up = svg('symbol', {id: `cc-up-${name}`, viewBox: '0 0 100 100'});
    for (const shape of tile.drawing) {
      (UPRIGHT.has(shape.cls) ? up : symbol).append(svg('path', {d: shape.d, class: `t-${shape.cls}`}));
    }
    symbol.append(svg('rect', {x: 0.5, y: 0.5, width: 99, height: 99, class: 't-outline'}));
    if (!up.childNodes.length) return [symbol];
    this.upright.add(name);
    return [symbol, up];
  }

  /** The nodes that draw tile `name` turned `rotation` degrees in a 100 x 100 box at (x, y). */
  tileUses(name, rotation, x = 0, y = 0, attrs = {}) {
    const nodes = [svg('use', {href: `#cc-tile-${name}`, x, y, width: T, height: T,
      transform: `rotate(${rotation} ${x + 50} ${y + 50})`, ...attrs})];
    if (this.upright.has(name)) {
      nodes.push(svg('use', {href: `#cc-up-${name}`, x, y, width: T, height: T, class: 'cc-upright'}));
    }
    return nodes;
  }

  buildPanel() {
    const panel = this.ctx.panel;
    clear(panel);
    this.drawnSvg = svg('svg', {viewBox: '-4 -4 108 108', class: 'cc-drawn-svg', testid: 'drawn-tile-svg'});
    this.drawnBox = el('div', {class: 'cc-drawn', testid: 'drawn-tile'},
      el('div', {class: 'cc-drawn-title'}, 'Drawn tile'),
      el('div', {class: 'cc-drawn-row'},
        el('button', {type: 'button', class: 'rotate', testid: 'rotate-left', title: 'Turn left (Shift+R)',
          onclick: () => this.rotate(-1)}, '↺'),
        this.drawnSvg,
        el('button', {type: 'button', class: 'rotate', testid: 'rotate-right', title: 'Turn right (R)',
          onclick: () => this.rotate(1)}, '↻')),
      this.drawnCaption = el('div', {class: 'cc-drawn-caption', testid: 'drawn-tile-caption'}));
    this.buttons = el('div', {class: 'cc-buttons'});
    this.confirmToggle = el('input', {type: 'checkbox', testid: 'confirm-toggle', checked: this.confirm,
      onchange: (e) => {
        this.confirm = e.target.checked;
        setConfirmPlacement(this.confirm);
        if (!this.confirm) this.pending = null;
        if (this.frame) this.render(this.frame);
      }});
    this.settings = el('label', {class: 'cc-setting', title: 'A click on a space shows the tile there; a second click or Confirm places it'},
      this.confirmToggle, ' Confirm each tile placement');
    this.info = el('div', {class: 'cc-info'});
    this.account = el('div', {class: 'cc-account hidden', testid: 'final-account'});
    this.scores = el('table', {class: 'cc-scores', testid: 'scoreboard'});
    this.scoring = el('ol', {class: 'cc-scoring-log', testid: 'scoring-log'});
    this.remaining = el('div', {class: 'cc-remaining'});
    panel.append(this.account, this.drawnBox, this.buttons, this.settings, this.info,
      el('h3', {}, 'Scores and supply'), this.scores,
      el('details', {class: 'cc-details', open: true}, el('summary', {}, 'Scoring'), this.scoring),
      el('details', {class: 'cc-details'}, el('summary', {testid: 'remaining-toggle'}, 'Tiles still in the bag'), this.remaining));
    document.addEventListener('keydown', (e) => {
      if (e.target && ['INPUT', 'TEXTAREA', 'SELECT'].includes(e.target.tagName)) return;
      if (e.key === 'r' || e.key === 'R') this.rotate(e.shiftKey ? -1 : 1);
      if (e.key === 'Enter' && this.pending) this.confirmPending();
      if (e.key === 'Escape' && this.pending) this.cancelPending();
    });
  }

  // -- pan and zoom (panzoom.js) ---------------------------------------------------------------

  /** The whole board as a viewBox: every tile and every space a tile may go to now. */
  extent() {
    const v = this.frame && this.frame.view;
    if (!v) return [-250, -200, 500, 400];
    const xs = v.board.map((t) => t.x);
    const ys = v.board.map((t) => t.y);
    for (const a of (this.frame.legal_actions || [])) {
      if (a.type === 'place' || a.type === 'abbey') {
        xs.push(a.x);
        ys.push(a.y);
      }
    }
    const minX = Math.min(...xs) - 1;
    const maxX = Math.max(...xs) + 2;
    const minY = Math.min(...ys) - 1;
    const maxY = Math.max(...ys) + 2;
    let w = (maxX - minX) * T;
    let h = (maxY - minY) * T;
    w = Math.max(w, 500);
    h = Math.max(h, 400);
    const cx = (minX + maxX) / 2 * T;
    const cy = (minY + maxY) / 2 * T;
    return [cx - w / 2, cy - h / 2, w, h];
  }

  // -- rendering --------------------------------------------------------------------------------

  render(frame) {
    this.frame = frame;
    const v = frame.view;
    const actions = (this.ctx.interactive ? frame.legal_actions : []) || [];
    const myTurn = actions.length > 0 && frame.seat === frame.current_player;
    this.tileAt = new Map(v.board.map((t) => [`${t.x},${t.y}`, t]));
    const places = actions.filter((a) => a.type === 'place');
    const key = `${frame.step}:${v.tile}`;
    if (places.length) {
      const offered = [...new Set(places.map((a) => a.rotation))].sort((a, b) => a - b);
      if (!offered.includes(this.rotation)) this.rotation = offered[0];
      this.offered = offered;
    } else {
      this.offered = [];
    }
    this.tileKey = key;
    if (this.pending && (this.pending.step !== frame.step || !myTurn || !(this.confirm || this.pending.picked))) {
      this.pending = null;
    }
    this.table = frame.table || {};
    this.final = frame.status === 'finished' ? this.table.final || null : null;
    this.renderTiles(v);
    this.renderFigures(v);
    this.clearHighlight();
    clear(this.layers.spots);
    clear(this.layers.ghost);
    clear(this.layers.pending);
    if (myTurn) this.renderSpots(frame, actions);
    this.renderPending(v);
    this.renderFinalLabels();
    this.renderHints(frame);
    this.pz.refresh();
    this.renderPanel(frame, actions);
  }

  renderTiles(v) {
    const layer = clear(this.layers.tiles);
    for (const t of v.board) {
      const g = svg('g', {transform: `translate(${t.x * T},${t.y * T})`, class: 'cc-tile',
        testid: `tile-${t.x}-${t.y}`, dataset: {tile: t.tile, rotation: t.rotation}});
      g.append(...this.tileUses(t.tile, t.rotation));
      g.append(svg('title', {}, `${t.tile} at (${t.x}, ${t.y}), turned ${t.rotation}°`));
      layer.append(g);
    }
    const marks = clear(this.layers.marks);
    if (v.last_placed) {
      marks.append(svg('rect', {x: v.last_placed.x * T + 2, y: v.last_placed.y * T + 2, width: T - 4,
        height: T - 4, class: 'cc-last', testid: 'last-placed'}));
    }
    if (v.wagon && v.wagon.from) {
      marks.append(svg('rect', {x: v.wagon.from.x * T + 4, y: v.wagon.from.y * T + 4, width: T - 8,
        height: T - 8, class: 'cc-wagon-from', stroke: this.seatColour(v.wagon.player)}));
    }
  }

  /** The board point of a feature location on the tile at (x, y), or null. */
  locationPoint(x, y, location) {
    const t = this.tileAt.get(`${x},${y}`);
    if (!t) return null;
    if (this.data.corners[location]) {
      const [cx, cy] = this.data.corners[location];
      return {point: [x * T + cx, y * T + cy], kind: 'corner'};
    }
    const tile = this.data.tiles[t.tile];
    const q = ((t.rotation / 90) % 4 + 4) % 4;
    const feature = tile && tile.features.find((f) => f.locations[q] === location);
    if (!feature) return null;
    const [px, py] = rotatePoint(feature.spot, t.rotation);
    return {point: [x * T + px, y * T + py], kind: feature.kind};
  }

  figureNode(seat, figure, role, [x, y], extra = {}) {
    const colour = this.seatColour(seat);
    let node;
    if (figure === 'wagon') {
      node = svg('use', {href: '#cc-wagon', x: x - 13, y: y - 11, width: 26, height: 22});
    } else if (figure === 'barn') {
      node = svg('use', {href: '#cc-barn', x: x - 14, y: y - 14, width: 28, height: 28});
    } else {
      const size = figure === 'mayor' ? 30 : 22;
      node = svg('use', {href: '#cc-meeple', x: x - size / 2, y: y - size * 13 / 24, width: size,
        height: size * 26 / 24});
      if (role === 'farmer' && !extra.standing) node.setAttribute('transform', `rotate(-90 ${x} ${y})`);
      if (extra.lying) node.setAttribute('transform', `rotate(-90 ${x} ${y})`);
    }
    node.setAttribute('fill', colour);
    node.setAttribute('class', `cc-figure fig-${figure}`);
    const g = svg('g', {class: 'cc-figure-g'}, node);
    if (figure === 'mayor') {
      g.append(svg('text', {x, y: y + 4, class: 'cc-figure-letter'}, 'M'));
    }
    return g;
  }

  renderFigures(v) {
    const layer = clear(this.layers.figures);
    // the final board: the figures as they stood before the end-of-game scoring
    const followers = this.final ? this.final.figures : v.followers;
    const barns = this.final ? this.final.barns : v.barns;
    for (const f of followers || []) {
      const at = this.locationPoint(f.x, f.y, f.location);
      if (!at) continue;
      const g = this.figureNode(f.player, f.figure, f.role, at.point, {lying: f.lying});
      g.setAttribute('data-testid', `figure-${f.x}-${f.y}-${f.location}`);
      g.append(svg('title', {}, `${this.personName(f.player)}: ${f.figure} (${f.role}) on ${f.location} of (${f.x}, ${f.y})`));
      layer.append(g);
    }
    for (const b of barns || []) {
      const point = [(b.corner.x + 1) * T, (b.corner.y + 1) * T];
      const g = this.figureNode(b.player, 'barn', 'barn', point);
      g.setAttribute('data-testid', `barn-${b.corner.x}-${b.corner.y}`);
      layer.append(g);
    }
  }

  clickable(node, handler) {
    node.addEventListener('click', (e) => {  // (the click that ends a pan never comes here)
      e.stopPropagation();
      handler(e);
    });
    return node;
  }

  renderSpots(frame, actions) {
    const v = frame.view;
    const layer = this.layers.spots;
    // tile placement
    const byPos = new Map();
    for (const a of actions) {
      if (a.type !== 'place') continue;
      const k = `${a.x},${a.y}`;
      if (!byPos.has(k)) byPos.set(k, {x: a.x, y: a.y, rotations: []});
      byPos.get(k).rotations.push(a.rotation);
    }
    for (const {x, y, rotations} of byPos.values()) {
      const legal = rotations.includes(this.rotation);
      const rect = svg('rect', {x: x * T + 3, y: y * T + 3, width: T - 6, height: T - 6, rx: 6,
        class: `cc-spot ${legal ? 'legal' : 'alt'}`, testid: legal ? `spot-${x}-${y}` : `spot-alt-${x}-${y}`,
        dataset: {x, y, rotations: rotations.join(',')}});
      rect.append(svg('title', {}, legal ? `Place here (${x}, ${y})`
        : `Fits here turned ${rotations.join('° or ')}° — click to turn it`));
      if (legal) {
        this.clickable(rect, () => this.choosePlace(x, y));
        rect.addEventListener('mouseenter', () => this.showGhostTile(v.tile, x, y, this.rotation));
        rect.addEventListener('mouseleave', () => clear(this.layers.ghost));
      } else {
        this.clickable(rect, () => {
          this.rotation = rotations[0];
          this.pending = null;
          this.render(this.frame);
        });
      }
      layer.append(rect);
    }
    // abbeys into holes
    for (const a of actions) {
      if (a.type !== 'abbey') continue;
      const rect = svg('rect', {x: a.x * T + 3, y: a.y * T + 3, width: T - 6, height: T - 6, rx: 6,
        class: 'cc-spot legal abbey', testid: `abbey-${a.x}-${a.y}`});
      rect.append(svg('title', {}, `Place your abbey at (${a.x}, ${a.y})`));
      this.clickable(rect, () => this.ctx.send(a));
      rect.addEventListener('mouseenter', () => this.showGhostTile('ABBEY', a.x, a.y, 0));
      rect.addEventListener('mouseleave', () => clear(this.layers.ghost));
      layer.append(rect);
    }
    // figures: deploy on the placed tile, or a wagon move
    const deploys = actions.filter((a) => a.type === 'deploy');
    if (!deploys.length) return;
    const wagonMove = v.phase === 'wagon_move';
    const figures = [...new Set(deploys.map((a) => a.figure))];
    if (!wagonMove && !figures.includes(this.figure)) {
      this.figure = FIGURE_ORDER.find((f) => figures.includes(f)) || figures[0];
    }
    for (const a of deploys) {
      if (!wagonMove && a.figure !== this.figure) continue;
      const at = this.locationPoint(a.x, a.y, a.location);
      if (!at) continue;
      const [px, py] = at.point;
      const testid = wagonMove ? `wagon-${a.x}-${a.y}-${a.location}` : `deploy-${a.location}`;
      const g = svg('g', {class: `cc-deploy kind-${at.kind}`, testid,
        dataset: {x: a.x, y: a.y, location: a.location, figure: a.figure}});
      g.append(svg('circle', {cx: px, cy: py, r: 11, class: 'cc-deploy-ring'}));
      const role = at.kind === 'corner' ? 'barn' : ROLE[at.kind] || at.kind;
      const feature = this.spotFeature(a);
      if (feature) g.dataset.points = String(feature.points);
      g.append(svg('title', {}, `${FIGURE_LABEL[a.figure]} as ${role} on ${a.location}`
        + (feature ? ` — ${this.worthText(feature)}` : '')));
      this.clickable(g, () => this.ctx.send(a));
      const preview = () => {
        clear(this.layers.ghost);
        const ghost = this.figureNode(frame.seat, a.figure, role, at.point);
        ghost.setAttribute('opacity', '0.6');
        this.layers.ghost.append(ghost);
        if (feature) this.highlight(feature.segments, feature.kind, at.point, this.worthText(feature));
      };
      g.addEventListener('mouseenter', preview);
      g.addEventListener('mouseleave', () => {
        clear(this.layers.ghost);
        this.clearHighlight();
      });
      longPress(g, preview);  // touch screens: a long press shows what hovering shows
      layer.append(g);
    }
  }

  // -- placing with a confirmation -------------------------------------------------------------

  /** A click on a legal space: place at once, or hold the placement for a confirmation. */
  choosePlace(x, y) {
    const p = this.pending;
    if (!this.confirm || (p && p.x === x && p.y === y && p.rotation === this.rotation)) {
      this.pending = null;
      this.ctx.send({type: 'place', x, y, rotation: this.rotation});
      return;
    }
    this.pending = {x, y, rotation: this.rotation, step: this.frame.step};
    this.render(this.frame);
  }

  confirmPending() {
    const p = this.pending;
    if (!p) return;
    this.pending = null;
    this.ctx.send({type: 'place', x: p.x, y: p.y, rotation: p.rotation});
  }

  cancelPending() {
    this.pending = null;
    if (this.frame) this.render(this.frame);
  }

  renderPending(v) {
    const p = this.pending;
    if (!p || !v.tile) return;
    const g = svg('g', {transform: `translate(${p.x * T},${p.y * T})`, class: 'cc-pending',
      testid: 'pending-tile', dataset: {x: p.x, y: p.y, rotation: p.rotation}});
    g.append(...this.tileUses(v.tile, p.rotation));
    g.append(svg('rect', {x: 2, y: 2, width: T - 4, height: T - 4, rx: 5, class: 'cc-pending-frame'}));
    this.layers.pending.append(g);
  }

  // -- features: highlight and points -------------------------------------------------------------

  /** The feature a Deploy would join (from the table data), or null. */
  spotFeature(a) {
    const spots = this.table.spots || [];
    const spot = spots.find((s) => s.x === a.x && s.y === a.y && s.location === a.location
      && s.figure === a.figure);
    return spot ? (this.table.features || [])[spot.feature] || null : null;
  }

  worthText(feature) {
    const pts = plural(feature.points, 'point');
    if (feature.kind === 'barn') return `${pts} for the barn now`;
    if (feature.complete) return `${pts} now (complete)`;
    return `${pts} now`;
  }

  /** The drawn ground of one feature part: its area turned with its tile. */
  segmentNode(seg, kind) {
    const t = this.tileAt.get(`${seg.x},${seg.y}`);
    const tile = t && this.data.tiles[t.tile];
    if (!tile) return null;
    const q = ((t.rotation / 90) % 4 + 4) % 4;
    const f = tile.features.find((feature) => feature.locations[q] === seg.location);
    if (!f || !f.area) return null;
    return svg('path', {d: f.area, class: `cc-hl kind-${kind}`,
      transform: `translate(${seg.x * T},${seg.y * T}) rotate(${t.rotation} 50 50)`,
      dataset: {x: seg.x, y: seg.y, location: seg.location}});
  }

  /** Light up every part of a feature, with a label of its points at `point`. */
  highlight(segments, kind, point, text) {
    this.clearHighlight();
    const g = svg('g', {class: `cc-highlight kind-${kind}`, testid: 'feature-highlight',
      dataset: {kind, segments: segments.length}});
    for (const seg of segments) {
      const node = this.segmentNode(seg, kind === 'barn' ? 'field' : kind);
      if (node) g.append(node);
      if (kind === 'monastery') {  // the eight spaces around count
        g.append(svg('rect', {x: (seg.x - 1) * T + 3, y: (seg.y - 1) * T + 3, width: 3 * T - 6,
          height: 3 * T - 6, rx: 8, class: 'cc-hl-area'}));
      }
    }
    this.layers.highlight.append(g);
    if (point && text) {
      const [x, y] = point;
      const k = this.pz.unitsPerPixel();  // the label keeps its size on screen at any zoom
      const width = (10 + 7.4 * text.length) * k;
      const tip = svg('g', {class: 'cc-tip', testid: 'feature-points', dataset: {text}},
        svg('rect', {x: x - width / 2, y: y - 16 - 22 * k, width, height: 22 * k, rx: 6 * k}),
        svg('text', {x, y: y - 16 - 6 * k, 'font-size': 13 * k}, text));
      this.layers.tip.append(tip);
    }
  }

  clearHighlight() {
    clear(this.layers.highlight);
    clear(this.layers.tip);
  }

  /** The board point where a scoring's label goes: by its first figure, else its first part. */
  scoringPoint(scoring) {
    for (const f of scoring.figures || []) {
      if (f.corner) return [(f.corner.x + 1) * T, (f.corner.y + 1) * T];
      const at = this.locationPoint(f.x, f.y, f.location);
      if (at) return at.point;
    }
    for (const seg of scoring.segments || []) {
      const at = this.locationPoint(seg.x, seg.y, seg.location);
      if (at) return at.point;
    }
    return null;
  }

  /** The final board: a label on each feature the end-of-game scoring scored. */
  renderFinalLabels() {
    const layer = clear(this.layers.labels);
    if (!this.final) return;
    this.final.scorings.forEach((s, i) => {
      if (!s.end) return;
      const point = this.scoringPoint(s);
      if (!point) return;
      const [x, y] = [point[0] + 14, point[1] - 14];
      const colour = s.players.length ? this.seatColour(s.players[0]) : '#777';
      const g = svg('g', {class: 'cc-score-label', testid: `final-label-${i}`,
        dataset: {points: s.points, feature: s.feature, players: s.players.join(',')}},
      svg('circle', {cx: x, cy: y, r: 13, fill: colour}),
      svg('text', {x, y: y + 4.5}, `+${s.points}`),
      svg('title', {}, this.scoringText(s)));
      const show = () => this.highlight(s.segments, s.feature, point, this.scoringText(s));
      g.addEventListener('mouseenter', show);
      g.addEventListener('mouseleave', () => this.clearHighlight());
      longPress(g, show);
      layer.append(g);
    });
  }

  /** Each seat's score if the game ended now, for the players panel (table.js asks). */
  playerExtra(seat, frame) {
    const projected = frame.status !== 'finished' && frame.table && frame.table.projected_scores;
    if (!projected || projected[seat] === undefined) return null;
    return el('span', {class: 'player-projected', testid: `projected-${seat}`,
      title: `${projected[seat]} if the game ended now (end-of-game scoring of the figures on the board)`},
    `→ ${projected[seat]}`);
  }

  // -- hints ------------------------------------------------------------------------------------

  showHints(hints, frame) {
    this.hints = {step: frame.step, list: hints || []};
    if (this.frame) this.renderHints(this.frame);
  }

  /** Numbered marks of the hints: a ghost of the tile where a placement puts it (turned), a
   *  ring at the figure spot of a deployment or wagon move, a ghost abbey in a hole. Passing
   *  and drawing have no place on the board: they are in the list only. */
  renderHints(frame) {
    const layer = clear(this.layers.hints);
    if (!this.hints || this.hints.step !== frame.step) return;
    const v = frame.view;
    const ghosts = svg('g', {class: 'cc-hint-ghosts'});  // under every number
    const marks = [];
    const perTile = new Map();
    for (const hint of this.hints.list) {
      const a = hint.action;
      const label = `${hint.rank}. ${hint.text} (${hint.margin >= 0 ? '+' : ''}${hint.margin.toFixed(1)})`;
      let point = null;
      const g = svg('g', {class: `cc-hint type-${a.type}`, testid: `hint-mark-${hint.rank}`,
        dataset: {rank: hint.rank, type: a.type, x: a.x, y: a.y, rotation: a.rotation, location: a.location}});
      if (a.type === 'place' || a.type === 'abbey') {
        const name = a.type === 'abbey' ? 'ABBEY' : v.tile;
        if (name && this.data.tiles[name]) {
          ghosts.append(...this.tileUses(name, a.rotation || 0, a.x * T, a.y * T, {class: 'cc-hint-ghost',
            testid: `hint-ghost-${hint.rank}`, dataset: {rank: hint.rank}}));
        }
        ghosts.append(svg('rect', {x: a.x * T + 2, y: a.y * T + 2, width: T - 4, height: T - 4, rx: 5, class: 'cc-hint-frame'}));
        const k = `${a.x},${a.y}`;
        const n = perTile.get(k) || 0;
        perTile.set(k, n + 1);
        point = [a.x * T + 16 + 28 * n, a.y * T + 16];
      } else if (a.type === 'deploy') {
        const at = this.locationPoint(a.x, a.y, a.location);
        if (at) {
          g.append(svg('circle', {cx: at.point[0], cy: at.point[1], r: 15, class: 'cc-hint-ring'}));
          point = [at.point[0] + 13, at.point[1] - 13];
        }
      }
      if (!point) continue;
      g.append(svg('circle', {cx: point[0], cy: point[1], r: 12, class: 'cc-hint-badge'}));
      g.append(svg('text', {x: point[0], y: point[1] + 5, class: 'cc-hint-number'}, String(hint.rank)));
      if (a.type === 'place') {  // the turn, next to the number, when ghosts share a space
        g.append(svg('text', {x: point[0], y: point[1] + 24, class: 'cc-hint-turn'}, `${a.rotation}°`));
      }
      g.append(svg('title', {}, label));
      marks.push(g);
    }
    layer.append(ghosts, ...marks);
  }

  /** Pre-select a hinted move: a hinted placement is shown where it goes, turned, and waits
   *  for Confirm like any placement (even with the confirmation switched off: choosing from a
   *  list is not placing); a hinted deployment chooses its figure. */
  pickHint(hint) {
    const a = hint.action;
    const frame = this.frame;
    if (!frame) return;
    if (a.type === 'place' && this.offered && this.offered.includes(a.rotation)) {
      this.rotation = a.rotation;
      this.pending = {x: a.x, y: a.y, rotation: a.rotation, step: frame.step, picked: true};
    }
    if (a.type === 'deploy' && a.figure) this.figure = a.figure;
    this.render(frame);
  }

  showGhostTile(name, x, y, rotation) {
    const layer = clear(this.layers.ghost);
    if (!name || !this.data.tiles[name]) return;
    const g = svg('g', {transform: `translate(${x * T},${y * T})`, class: 'cc-ghost'});
    g.append(...this.tileUses(name, rotation));
    layer.append(g);
  }

  rotate(direction) {
    if (!this.offered || this.offered.length < 2) return;
    const i = this.offered.indexOf(this.rotation);
    this.rotation = this.offered[(i + direction + this.offered.length) % this.offered.length];
    if (this.pending) {
      const p = this.pending;
      const fits = (this.frame.legal_actions || []).some((a) => a.type === 'place' && a.x === p.x
        && a.y === p.y && a.rotation === this.rotation);
      this.pending = fits ? {...p, rotation: this.rotation} : null;
    }
    if (this.frame) this.render(this.frame);
  }

  // -- the side panel ---------------------------------------------------------------------------

  renderPanel(frame, actions) {
    const v = frame.view;
    const myTurn = actions.length > 0;
    // drawn tile
    clear(this.drawnSvg);
    // a game ended early (time, resignation, a claim) shows no tile still to place
    const showTile = v.tile && this.data.tiles[v.tile] && v.phase === 'place_tile' && frame.status !== 'finished';
    this.drawnBox.classList.toggle('empty', !showTile);
    const rotation = myTurn ? this.rotation : 0;
    if (showTile) {
      this.drawnSvg.append(...this.tileUses(v.tile, rotation, 0, 0, {testid: 'drawn-tile-image'}));
      const info = this.data.tiles[v.tile];
      replace(this.drawnCaption, el('b', {}, `Tile ${v.tile}`), ` · ${rotation}° · ${info.description}`);
    } else {
      replace(this.drawnCaption, v.phase === 'game_over' || frame.status === 'finished' ? 'No tile: the game is over.' : 'No tile drawn.');
    }
    this.drawnSvg.dataset.rotation = String(rotation);
    this.drawnBox.dataset.tile = v.tile || '';
    for (const b of this.drawnBox.querySelectorAll('button.rotate')) {
      b.disabled = !myTurn || this.offered.length < 2;
    }
    // buttons for the decision at hand
    const buttons = [];
    if (this.pending) {
      const p = this.pending;
      buttons.push(el('div', {class: 'cc-confirm', testid: 'confirm-box'},
        el('span', {}, `Tile at (${p.x}, ${p.y}), turned ${p.rotation}°. `),
        el('button', {type: 'button', class: 'primary', testid: 'confirm-place', onclick: () => this.confirmPending()},
          'Confirm placement'), ' ',
        el('button', {type: 'button', testid: 'cancel-place', onclick: () => this.cancelPending()}, 'Cancel')));
    }
    const deploys = actions.filter((a) => a.type === 'deploy');
    if (deploys.length && v.phase !== 'wagon_move') {
      const figures = FIGURE_ORDER.filter((f) => deploys.some((a) => a.figure === f));
      const supply = (v.supply && v.supply[frame.seat]) || {};
      buttons.push(el('div', {class: 'cc-figures'}, el('span', {class: 'muted'}, 'Figure: '),
        figures.map((f) => el('button', {type: 'button', testid: `figure-${f}`,
          class: `figure-btn${f === this.figure ? ' selected' : ''}`,
          onclick: () => {
            this.figure = f;
            this.render(this.frame);
          }}, `${FIGURE_LABEL[f]} (${supply[f] ?? '?'})`))));
      buttons.push(el('p', {class: 'hint'}, 'Click a ring on the tile you placed to put the figure there.'));
    }
    for (const a of actions) {
      if (a.type === 'pass') {
        const label = v.phase === 'wagon_move' ? 'Take the wagon back'
          : v.phase === 'final_abbey_round' ? 'Pass (keep the abbey)' : 'Pass (no figure)';
        buttons.push(el('button', {type: 'button', class: 'primary', testid: 'pass',
          onclick: () => this.ctx.send(a)}, label));
      } else if (a.type === 'draw') {
        buttons.push(el('button', {type: 'button', class: 'primary', testid: 'draw',
          onclick: () => this.ctx.send(a)}, 'Draw a tile'));
      }
    }
    replace(this.buttons, buttons);
    // tiles left, phase info
    const infos = [el('div', {testid: 'tiles-left', class: 'tiles-left', dataset: {count: v.draw_pile_size}},
      `Tiles left: ${v.draw_pile_size}`)];
    if (v.discarded && v.discarded.length) infos.push(el('div', {class: 'muted'}, `Discarded (no fit): ${v.discarded.join(', ')}`));
    if (v.wagon) infos.push(el('div', {}, `${this.personName(v.wagon.player)} moves a wagon from (${v.wagon.from.x}, ${v.wagon.from.y}).`));
    if (v.final_round && v.phase !== 'game_over') infos.push(el('div', {}, 'Final abbey round.'));
    replace(this.info, infos);
    this.settings.classList.toggle('hidden', v.phase === 'game_over');
    this.renderScores(frame);
    this.renderScoring(v);
    this.renderRemaining(v);
    this.renderAccount(frame);
  }

  renderScores(frame) {
    const v = frame.view;
    const figures = [...new Set(v.supply.flatMap((s) => Object.keys(s)))];
    figures.sort((a, b) => (FIGURE_ORDER.indexOf(a) + 10 * (a === 'abbey')) - (FIGURE_ORDER.indexOf(b) + 10 * (b === 'abbey')));
    const short = {follower: 'Foll.', mayor: 'Mayor', wagon: 'Wagon', barn: 'Barn', abbey: 'Abbey'};
    const head = el('tr', {}, el('th', {}, 'Player'), el('th', {class: 'num'}, 'Score'),
      figures.map((f) => el('th', {class: 'num', title: `${FIGURE_LABEL[f] || f}s in supply`}, short[f] || f)));
    const rows = v.scores.map((score, seat) => el('tr', {
      class: `${seat === v.current_player ? 'current' : ''}${(v.winners || []).includes(seat) ? ' winner' : ''}${seat === frame.seat ? ' me' : ''}`,
      testid: `score-${seat}`, title: seat === frame.seat ? 'you' : ''},
    el('td', {class: 'name', testid: `score-name-${seat}`}, this.personTag(seat), seat === frame.seat ? ' ◂' : ''),
    el('td', {class: 'num score', testid: `score-value-${seat}`}, String(score)),
    figures.map((f) => el('td', {class: 'num', testid: `supply-${seat}-${f}`}, String(v.supply[seat][f] ?? 0)))));
    replace(this.scores, el('thead', {}, head), el('tbody', {}, rows));
  }

  /** The scoring list: each scoring's line in the game's words (the server's `text` and
   *  `words`, from games/carcassonne/texts.py), each seat it names as who holds it, after a
   *  swatch of the seat's colour (people.js). */
  renderScoring(v) {
    if (this.final) {
      const entries = this.final.scorings.map((s, i) => [s, i]).reverse().map(([s, i]) => {
        const li = el('li', {class: 'cc-scoring-entry', testid: `scoring-entry-${i}`}, this.scoringNodes(s));
        const show = () => this.highlight(s.segments, s.feature, this.scoringPoint(s), this.scoringText(s));
        li.addEventListener('mouseenter', show);
        li.addEventListener('mouseleave', () => this.clearHighlight());
        longPress(li, show);
        return li;
      });
      replace(this.scoring, entries.length ? entries : [el('li', {class: 'muted'}, 'Nothing was scored.')]);
      return;
    }
    const entries = (v.log || []).map((e, i) => [e, i]).reverse().map(([e, i]) => el('li', {testid: `scoring-line-${i}`},
      this.scoringNodes(e)));
    replace(this.scoring, entries.length ? entries : [el('li', {class: 'muted'}, 'Nothing scored yet.')]);
  }

  /** The final account: points per player by kind of feature (during play and at the end),
   *  as a table and as stacked bars. */
  renderAccount(frame) {
    const box = this.account;
    if (!this.final || !this.final.breakdown) {
      box.classList.add('hidden');
      clear(box);
      return;
    }
    const rows = this.final.breakdown.map((parts, seat) => {
      const kinds = {};
      for (const k of KINDS) kinds[k] = (parts.play[k] || 0) + (parts.end[k] || 0);
      return {seat, parts, kinds, total: KINDS.reduce((t, k) => t + kinds[k], 0)};
    });
    const used = KINDS.filter((k) => rows.some((r) => r.kinds[k]));
    const table = el('table', {class: 'cc-account-table', testid: 'final-account-table'},
      el('thead', {}, el('tr', {}, el('th', {}, 'Player'), used.map((k) => el('th', {class: 'num'}, KIND_LABEL[k])),
        el('th', {class: 'num'}, 'Total'))),
      el('tbody', {}, rows.map((r) => el('tr', {testid: `account-${r.seat}`},
        el('td', {testid: `account-name-${r.seat}`}, this.personTag(r.seat)),
        used.map((k) => el('td', {class: 'num', testid: `account-${r.seat}-${k}`,
          title: `${r.parts.play[k] || 0} during play, ${r.parts.end[k] || 0} at the end`}, String(r.kinds[k]))),
        el('td', {class: 'num total', testid: `account-total-${r.seat}`}, String(r.total))))));
    const best = Math.max(1, ...rows.map((r) => r.total));
    const barHeight = 18;
    const width = 240;
    const chart = svg('svg', {class: 'cc-chart', testid: 'final-chart', viewBox: `0 0 ${width + 40} ${rows.length * (barHeight + 6)}`,
      role: 'img', 'aria-label': 'Points per player by kind of feature'});
    rows.forEach((r, i) => {
      const y = i * (barHeight + 6);
      let x = 0;
      const bar = svg('g', {testid: `chart-bar-${r.seat}`, dataset: {total: r.total}});
      for (const k of used) {
        const w = r.kinds[k] / best * width;
        if (w > 0) {
          bar.append(svg('rect', {x, y, width: w, height: barHeight, fill: KIND_COLOUR[k], class: `bar-${k}`},
            svg('title', {}, `${this.personName(r.seat)}: ${KIND_LABEL[k]} ${r.kinds[k]}`)));
        }
        x += w;
      }
      bar.append(svg('rect', {x: 0, y, width: 4, height: barHeight, fill: this.seatColour(r.seat)}));
      bar.append(svg('text', {x: x + 4, y: y + barHeight - 5, class: 'cc-chart-total'}, String(r.total)));
      chart.append(bar);
    });
    const legend = el('div', {class: 'cc-chart-legend'}, used.map((k) => el('span', {},
      el('span', {class: 'swatch', style: `background:${KIND_COLOUR[k]}`}), ` ${KIND_LABEL[k]} `)));
    replace(box, el('h3', {}, 'How the points were made'), table, chart, legend,
      el('p', {class: 'hint'}, 'The board shows the figures before the final scoring; hover a +label or a line of the scoring list to see its feature.'));
    box.classList.remove('hidden');
  }

  renderRemaining(v) {
    const items = Object.entries(v.remaining_tiles || {}).map(([name, count]) => el('div', {class: 'cc-rem'},
      svg('svg', {viewBox: '0 0 100 100', class: 'cc-rem-svg'}, ...this.tileUses(name, 0)),
      el('span', {}, `${name} ×${count}`)));
    replace(this.remaining, items.length ? items : [el('p', {class: 'muted'}, 'The bag is empty.')]);
  }
}
