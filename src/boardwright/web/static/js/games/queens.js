// Queens & Princes: the hex board (axial q, r; r grows towards Red's side, drawn at the bottom),
// Queens, Princes, stacks, Cities and Fields in the players' colours. Click one of your pieces
// to see where it may go (attacks in red, joint attacks dashed), then a highlighted space;
// "Sow a Field" shows where a Field may be sown; Found and Pass are buttons. Hints are numbered
// marks on the space a move goes to (a Field is sown on, a City is founded on).

import {el, svg, replace, clear} from '../util.js';
import {PanZoom} from '../panzoom.js';
import {seatOf} from '../gameinfo.js';

const SIZE = 30;  // hex radius in SVG units
const SQ3 = Math.sqrt(3);
// The narrowest a hex may start on screen, in pixels: below it (a phone shows the whole board
// with 30-pixel hexes) the board opens zoomed on the player's Queen, labels and numbers
// legible; ⤢ still shows the whole board.
const LEGIBLE_HEX_PX = 56;

const key = (c) => `${c[0]},${c[1]}`;
// A space's board label from its key ("q,r").
const keyLabel = (k, radius) => {
  const [q, r] = k.split(',').map(Number);
  return spaceLabel(q, r, radius);
};

/** A space's name as the game's words write it: its row letter (a at the top) and its
 * half-cell column (1 at the left), "f11" for the centre of the standard board
 * (games/queens/texts.py), drawn on each space. */
export function spaceLabel(q, r, radius) {
  return `${String.fromCharCode(97 + r + radius)}${2 * (q + radius) + r + 1}`;
}

export function create(ctx) {
  return new QueensRenderer(ctx);
}

function hexCorners(cx, cy, r) {
  const points = [];
  for (let i = 0; i < 6; i++) {
    const a = Math.PI / 180 * (60 * i - 30);
    points.push(`${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`);
  }
  return points.join(' ');
}

function centre(q, r) {
  return [SIZE * SQ3 * (q + r / 2), SIZE * 1.5 * r];
}

class QueensRenderer {
  constructor(ctx) {
    this.ctx = ctx;
    this.selected = null;
    this.mode = 'move';
    this.frame = null;
    this.hints = null;  // {step, list}
  }

  init() {
    clear(this.ctx.board);
    this.svg = svg('svg', {class: 'qp-board', testid: 'board', role: 'img', 'aria-label': 'Queens board'});
    this.ctx.board.append(el('div', {class: 'qp-board-wrap'}, this.svg));
    this.extent = null;  // the whole board as a viewBox, from the map's radius
    this.pz = new PanZoom(this.svg, {extent: () => this.extent || [-100, -100, 200, 200],
      limits: (e) => [e[2] / 6, e[2]], bounded: true, dblclickFits: true});
    clear(this.ctx.panel);
    this.buttons = el('div', {class: 'qp-buttons'});
    this.selection = el('div', {class: 'hint', testid: 'selection'});
    this.split = el('div', {});
    this.legend = el('p', {class: 'hint qp-legend'}, 'On each piece: its strength (right) and how many steps it moves (left, ↦). '
      + 'While a piece is selected, an attack shows your strength against theirs.');
    this.info = el('div', {class: 'sh-phase'});
    this.log = el('ol', {class: 'qp-log', testid: 'event-log'});
    this.ctx.panel.append(this.buttons, this.split, this.selection, this.legend, this.info,
      el('h3', {}, 'Events'), this.log);
  }

  /** The standing in the rules' terms (QUE-END-04) instead of its encoded number: the place,
   *  or (long) the game's own words, as the lobby's ("2 Fields, 1 City, 4 Princes"). */
  scoreText(frame, seat, long) {
    const score = (frame.scores || [])[seat];
    if (score === undefined) return '';
    if (!long) return score < 0 ? 'out' : standingRanks(frame.scores)[seat];  // the words are below it
    const standing = ((frame.view && frame.view.standing) || [])[seat];
    return standing ? standing.words : '';
  }

  scoreTitle() {
    return 'Place if the game ended now: most Fields on the board, then most Cities, then most Princes';
  }

  /** Under each player in the players panel (one panel, not two; the place is its score):
   *  the Fields, Cities and Princes on the board that decide it (QUE-END-04), with supplies,
   *  in the game's words (the view's `standing`, games/queens/texts.py). */
  playerDetails(frame, seat) {
    const v = frame.view;
    const s = v && v.position && v.position.seats[seat];
    const standing = v && v.standing && v.standing[seat];
    if (!s || !standing) return null;
    const [fields, cities, princes] = standing.parts;
    return el('div', {class: 'qp-details', testid: `standing-row-${seat}`},
      s.eliminated ? `${standing.words} · ` : '',
      el('span', {testid: `fields-${seat}`}, fields), ', ',
      el('span', {testid: `cities-${seat}`}, cities), ', ',
      el('span', {testid: `princes-${seat}`}, princes));
  }

  /** Under the players: what separates the leaders, in the rules' order, as the game words
   *  it (the view's `standing_rule`, games/queens/texts.py), with the players' names. */
  playersLegend(frame) {
    const rule = frame.view && frame.view.standing_rule;
    if (!rule) return '';
    return el('p', {class: 'hint qp-rule', testid: 'standing-rule'},
      ...[].concat(this.ctx.people ? this.ctx.people.sentence(rule) : rule.text));
  }

  /** A seat's colour name and colour: the game's seat table, from the server (`ctx.info`). */
  seatName(seat) {
    return seatOf(this.ctx.info, seat).name;
  }

  seatColour(seat) {
    return seatOf(this.ctx.info, seat).colour;
  }

  /** Who holds a seat (people.js): the player's name or the bot's label; the seat's own name
   *  on a page that knows no people. */
  personName(seat) {
    return this.ctx.people ? this.ctx.people.name(seat) : this.seatName(seat);
  }

  prompt() {
    if (this.mode === 'sow') return 'click a highlighted space to sow a Field';
    return this.selected ? 'click a highlighted space (red: attack)' : 'click one of your pieces, or Found / Sow / Pass';
  }

  finalNote(frame) {
    const v = frame.view;
    return `Round ${v.round}.`;
  }

  analyse(actions) {
    const moves = new Map();  // from -> [action]
    const joints = [];
    const sows = new Map();
    let found = null;
    let pass = null;
    for (const a of actions) {
      if (a.type === 'move') {
        const k = key(a.from);
        if (!moves.has(k)) moves.set(k, []);
        moves.get(k).push(a);
      } else if (a.type === 'joint') {
        joints.push(a);
      } else if (a.type === 'sow') {
        sows.set(key(a.at), a);
      } else if (a.type === 'found') {
        found = a;
      } else if (a.type === 'pass') {
        pass = a;
      }
    }
    const jointFrom = new Set(joints.flatMap((a) => a.from.map(key)));
    return {moves, joints, sows, found, pass, jointFrom};
  }

  render(frame) {
    this.frame = frame;
    const v = frame.view;
    const actions = (this.ctx.interactive ? frame.legal_actions : []) || [];
    const legal = this.analyse(actions);
    if (this.selected && !legal.moves.has(this.selected) && !legal.jointFrom.has(this.selected)) this.selected = null;
    if (this.mode === 'sow' && !legal.sows.size) this.mode = 'move';
    this.legal = legal;
    this.drawBoard(v, legal);
    this.drawPanel(frame, legal);
  }

  occupancy(v) {
    const cells = new Map();
    const get = (c) => {
      const k = key(c);
      if (!cells.has(k)) cells.set(k, {princes: 0});
      return cells.get(k);
    };
    v.position.seats.forEach((s, seat) => {
      if (s.queen) Object.assign(get(s.queen), {queen: seat});
      for (const p of s.princes || []) {
        const cell = get(p);
        cell.prince = seat;
        cell.princes += 1;
      }
      for (const c of s.cities || []) get(c).city = seat;
      for (const f of s.fields || []) get(f).field = seat;
    });
    return cells;
  }

  drawBoard(v, legal) {
    const s = clear(this.svg);
    const radius = v.map.radius;
    const mountains = new Set(v.map.mountains.map(key));
    const cells = this.occupancy(v);
    const viewer = this.frame.seat;
    // the game's numbers (games/queens/table.py): each piece's strength and movement, and
    // what the seat to move brings against each enemy space
    const table = this.frame.table || {};
    this.pieces = new Map((table.pieces || []).map((p) => [key(p.at), p]));
    this.attacks = new Map((table.attacks || []).map((a) => [key(a.at), a]));
    // targets of the selected piece
    const targets = new Map();  // key -> {moves: [], joints: []}
    const addTarget = (k, kind, a) => {
      if (!targets.has(k)) targets.set(k, {moves: [], joints: []});
      targets.get(k)[kind].push(a);
    };
    if (this.selected && this.mode === 'move') {
      for (const a of legal.moves.get(this.selected) || []) addTarget(key(a.to), 'moves', a);
      for (const a of legal.joints) {
        if (a.from.some((c) => key(c) === this.selected)) addTarget(key(a.to), 'joints', a);
      }
    }
    this.targets = targets;
    const w = SIZE * SQ3 * (2 * radius + 1) + 20;
    const h = SIZE * (3 * radius + 2) + 20;
    this.extent = [-w / 2, -h / 2, w, h];
    this.pz.refresh();
    if (!this.legible) this.legible = this.zoomToLegible(v);
    for (let r = -radius; r <= radius; r++) {
      for (let q = -radius; q <= radius; q++) {
        if (Math.max(Math.abs(q), Math.abs(r), Math.abs(q + r)) > radius) continue;
        const k = `${q},${r}`;
        const [cx, cy] = centre(q, r);
        const mountain = mountains.has(k);
        const cell = cells.get(k) || {princes: 0};
        const classes = ['qp-cell'];
        const movable = legal.moves.has(k) || legal.jointFrom.has(k);
        if (this.mode === 'move' && movable) classes.push('movable');
        if (this.selected === k) classes.push('selected');
        const target = targets.get(k);
        if (target) {
          classes.push('target');
          const enemy = (cell.queen !== undefined && cell.queen !== viewer)
            || (cell.prince !== undefined && cell.prince !== viewer)
            || (cell.city !== undefined && cell.city !== viewer);
          if (enemy) classes.push('attack');
          if (target.joints.length) classes.push('joint');
        }
        if (this.mode === 'sow' && legal.sows.has(k)) classes.push('sow');
        const g = svg('g', {class: classes.join(' '), testid: `hex-${q}-${r}`, dataset: {q, r}});
        g.append(svg('polygon', {points: hexCorners(cx, cy, SIZE - 0.5), class: `qp-hex ${mountain ? 'mountain' : 'plain'}`}));
        if (mountain) {
          g.append(svg('path', {class: 'qp-mountain-mark',
            d: `M${cx - 15},${cy + 10} L${cx - 5},${cy - 8} L${cx},${cy - 1} L${cx + 6},${cy - 12} L${cx + 16},${cy + 10} Z`}));
        }
        if (cell.field !== undefined) {
          g.append(svg('polygon', {points: hexCorners(cx, cy, SIZE - 6), class: 'qp-field',
            fill: this.seatColour(cell.field, this.frame), 'fill-opacity': 0.4}));
          g.append(svg('path', {class: 'qp-field', stroke: this.seatColour(cell.field, this.frame),
            d: `M${cx - 12},${cy + 14} L${cx - 12},${cy - 4} M${cx - 4},${cy + 16} L${cx - 4},${cy - 6} M${cx + 4},${cy + 16} L${cx + 4},${cy - 6} M${cx + 12},${cy + 14} L${cx + 12},${cy - 4}`}));
        }
        const mobile = cell.queen !== undefined || cell.princes > 0;
        if (cell.city !== undefined) {
          const sc = mobile ? 0.6 : 1;
          const ox = mobile ? cx - 14 : cx;
          const oy = mobile ? cy + 10 : cy;
          g.append(svg('path', {class: 'qp-city', fill: this.seatColour(cell.city, this.frame),
            d: cityPath(ox, oy, sc)}));
        }
        if (cell.queen !== undefined) {
          const colour = this.seatColour(cell.queen, this.frame);
          g.append(svg('circle', {cx, cy, r: 14, class: 'qp-piece', fill: colour}));
          g.append(svg('path', {class: 'qp-piece', fill: '#ffd84a',
            d: `M${cx - 8},${cy + 3} L${cx - 9},${cy - 7} L${cx - 4},${cy - 2} L${cx},${cy - 9} L${cx + 4},${cy - 2} L${cx + 9},${cy - 7} L${cx + 8},${cy + 3} Z`}));
          g.append(svg('text', {x: cx, y: cy + 11, class: 'qp-label'}, 'Q'));
        } else if (cell.princes > 0) {
          const colour = this.seatColour(cell.prince, this.frame);
          if (cell.princes > 1) g.append(svg('circle', {cx: cx + 4, cy: cy - 4, r: 11, class: 'qp-piece', fill: colour}));
          g.append(svg('circle', {cx, cy, r: 11, class: 'qp-piece', fill: colour}));
          g.append(svg('text', {x: cx, y: cy + 3.5, class: 'qp-label'}, cell.princes > 1 ? '2P' : 'P'));
        }
        if (target && target.joints.length) {
          g.append(svg('circle', {cx, cy, r: SIZE - 8, class: 'qp-mark'}));
        }
        const piece = this.pieces.get(k);
        if (piece && piece.kind !== 'city') {
          // strength on the right, movement (steps) on the left
          g.append(svg('circle', {cx: cx + 14, cy: cy - 13, r: 7.5, class: 'qp-num-badge'}));
          g.append(svg('text', {x: cx + 14, y: cy - 9.5, class: 'qp-num', testid: `strength-${q}-${r}`}, String(piece.strength)));
          g.append(svg('text', {x: cx - 14, y: cy - 9.5, class: 'qp-move-num', testid: `movement-${q}-${r}`}, `↦${piece.movement}`));
        } else if (piece) {
          g.append(svg('text', {x: cx + 14, y: cy - 9.5, class: 'qp-num qp-city-num', testid: `strength-${q}-${r}`}, String(piece.strength)));
        }
        const odds = target && this.attacks.get(k);
        if (odds) {
          const mine = target.moves.length ? odds.yours : odds.joint;
          g.append(svg('text', {x: cx, y: cy + 20, class: 'qp-odds', testid: `odds-${q}-${r}`}, `${mine} v ${odds.theirs}`));
        }
        g.append(svg('text', {x: cx, y: cy + SIZE - 8, class: 'qp-coord', testid: `label-${q}-${r}`}, spaceLabel(q, r, radius)));
        g.append(svg('title', {}, this.describeCell(q, r, mountain, cell, radius, target)));
        g.addEventListener('click', (e) => this.onCell(k, e));
        s.append(g);
      }
    }
    this.hintLayer = svg('g', {class: 'qp-hints'});
    s.append(this.hintLayer);
    this.drawHints();
  }

  /** On a small screen, once: zoom so that a hex is LEGIBLE_HEX_PX wide, centred on the
   *  viewer's Queen (the board's centre for a spectator). True once the screen is measured. */
  zoomToLegible(v) {
    const rect = this.svg.getBoundingClientRect();
    if (!rect.width || !rect.height) return false;
    const want = LEGIBLE_HEX_PX / (SIZE * SQ3);  // pixels per board unit
    if (this.pz.pxPerUnit() >= want) return true;
    const mine = (v.position.seats || [])[this.frame.seat];
    const at = (mine && mine.queen) || [0, 0];
    const [cx, cy] = centre(at[0], at[1]);
    const w = rect.width / want;
    const h = rect.height / want;
    this.pz.set([cx - w / 2, cy - h / 2, w, h]);
    return true;
  }

  showHints(hints, frame) {
    this.hints = {step: frame.step, list: hints || []};
    this.drawHints();
  }

  /** The space a hinted action points at: where a piece goes, a Field is sown, or the Queen
   *  founds a City; none for a pass. */
  hintSpace(a) {
    if (a.type === 'move' || a.type === 'joint') return a.to;
    if (a.type === 'sow') return a.at;
    if (a.type === 'found') {
      const seat = this.frame.view.position.seats[this.frame.seat];
      return seat && seat.queen;
    }
    return null;
  }

  drawHints() {
    if (!this.hintLayer || !this.frame) return;
    const layer = clear(this.hintLayer);
    if (!this.hints || this.hints.step !== this.frame.step) return;
    const perSpace = new Map();
    for (const hint of this.hints.list) {
      const at = this.hintSpace(hint.action);
      if (!at) continue;
      const n = perSpace.get(key(at)) || 0;
      perSpace.set(key(at), n + 1);
      const [cx, cy] = centre(at[0], at[1]);
      const [bx, by] = [cx - 14 + 14 * n, cy - SIZE + 8];
      layer.append(svg('g', {class: 'qp-hint', testid: `hint-mark-${hint.rank}`,
        dataset: {rank: hint.rank, q: at[0], r: at[1]}},
      svg('polygon', {points: hexCorners(cx, cy, SIZE - 3), class: 'qp-hint-ring'}),
      svg('circle', {cx: bx, cy: by, r: 9, class: 'qp-hint-badge'}),
      svg('text', {x: bx, y: by + 4.5, class: 'qp-hint-number', 'font-size': 12}, String(hint.rank)),
      svg('title', {}, `${hint.rank}. ${hint.text}`)));
    }
  }

  /** Pre-select a hinted move: select the piece that moves, or enter sowing. */
  pickHint(hint) {
    const a = hint.action;
    if (a.type === 'move') {
      this.mode = 'move';
      this.selected = key(a.from);
    } else if (a.type === 'joint') {
      this.mode = 'move';
      this.selected = key(a.from[0]);
    } else if (a.type === 'sow') {
      this.mode = 'sow';
      this.selected = null;
    }
    if (this.frame) this.render(this.frame);
  }

  describeCell(q, r, mountain, cell, radius, target) {
    const n = (seat) => this.seatName(seat, this.frame);
    const parts = [`${spaceLabel(q, r, radius)} ${mountain ? 'mountain' : 'plain'}`];
    if (cell.queen !== undefined) parts.push(`${n(cell.queen)} Queen`);
    if (cell.princes) parts.push(`${cell.princes > 1 ? 'two' : 'a'} ${n(cell.prince)} Prince${cell.princes > 1 ? 's' : ''}`);
    if (cell.city !== undefined) parts.push(`${n(cell.city)} City`);
    if (cell.field !== undefined) parts.push(`${n(cell.field)} Field`);
    const piece = this.pieces && this.pieces.get(`${q},${r}`);
    if (piece) {
      parts.push(`strength ${piece.strength} (${piece.why})`);
      if (piece.movement) parts.push(`moves up to ${piece.movement} step${piece.movement === 1 ? '' : 's'}`);
    }
    const odds = target && this.attacks && this.attacks.get(`${q},${r}`);
    if (odds) parts.push(this.oddsText(odds, target));
    return parts.join(' · ');
  }

  /** An attack's figures as the attacker reads them: "your 3 against their 4". */
  oddsText(odds, target) {
    const alone = `your ${odds.yours} against their ${odds.theirs}`;
    const joint = `two Princes: your ${odds.joint} against their ${odds.theirs}`;
    if (target && !target.moves.length) return joint;
    return target && target.joints.length ? `${alone}; ${joint}` : alone;
  }

  async onCell(k, event) {
    const legal = this.legal;
    if (!legal) return;
    if (this.mode === 'sow') {
      const a = legal.sows.get(k);
      if (a) this.ctx.send(a);
      return;
    }
    const target = this.targets && this.targets.get(k);
    if (target) {
      const options = [...target.moves, ...target.joints].map((a) => ({label: this.words(a), action: a}));
      if (options.length === 1) {
        this.ctx.send(options[0].action);
      } else {
        const odds = this.attacks && this.attacks.get(k);
        const title = `To ${keyLabel(k, this.frame.view.map.radius)}${odds ? ` (${this.oddsText(odds, target)})` : ''}`;
        const choice = await this.ctx.choose(options, {title, event});
        if (choice) this.ctx.send(choice.action);
      }
      return;
    }
    if (legal.moves.has(k) || legal.jointFrom.has(k)) {
      this.selected = this.selected === k ? null : k;
    } else {
      this.selected = null;
    }
    this.render(this.frame);
  }

  /** The game's words for a legal action (the frame's descriptions, games/queens/texts.py),
   *  capitalised for a menu. */
  words(a) {
    const frame = this.frame;
    const i = (frame.legal_actions || []).indexOf(a);
    const text = (frame.descriptions || [])[i];
    return text ? text[0].toUpperCase() + text.slice(1) : JSON.stringify(a);
  }

  drawPanel(frame, legal) {
    const v = frame.view;
    const buttons = [];
    if (legal.found) {
      buttons.push(el('button', {type: 'button', class: 'primary', testid: 'found',
        onclick: () => this.ctx.send(legal.found)}, 'Found a City'));
    }
    if (legal.sows.size) {
      buttons.push(el('button', {type: 'button', testid: 'sow-mode', class: this.mode === 'sow' ? 'selected' : '',
        onclick: () => {
          this.mode = this.mode === 'sow' ? 'move' : 'sow';
          this.selected = null;
          this.render(this.frame);
        }}, this.mode === 'sow' ? 'Cancel sowing' : `Sow a Field (${legal.sows.size} space${legal.sows.size === 1 ? '' : 's'})`));
    }
    if (legal.pass) {
      buttons.push(el('button', {type: 'button', testid: 'pass', onclick: () => this.ctx.send(legal.pass)}, 'Pass'));
    }
    replace(this.buttons, buttons);
    if (this.selected) {
      const n = (this.legal.moves.get(this.selected) || []).length;
      const piece = this.pieces && this.pieces.get(this.selected);
      const figures = piece ? ` (strength ${piece.strength}, moves up to ${piece.movement})` : '';
      replace(this.selection, `Selected ${keyLabel(this.selected, v.map.radius)}${figures}: ${n} move${n === 1 ? '' : 's'}. Click it again to deselect.`);
    } else {
      replace(this.selection, '');
    }
    // a stack left from a joint attack must split this turn, or one of its Princes is lost
    const split = frame.seat === v.current_player ? ((frame.table || {}).must_split || []) : [];
    replace(this.split, split.length ? el('div', {class: 'qp-split', testid: 'must-split', role: 'alert'},
      `Split your stack on ${split.join(' and ')} this turn (move one of its Princes away), or one of its Princes is lost.`) : '');
    replace(this.info,
      el('div', {testid: 'round'}, `Round ${v.round} of 50${v.final_round ? ' — final round' : ''}`),
      v.is_terminal ? el('div', {testid: 'queens-result'}, v.winners.length > 1
        ? `Draw between ${v.winners.map((s) => this.personName(s)).join(' and ')}: level on Fields, Cities and Princes`
        : `Winner: ${v.winners.map((s) => this.personName(s)).join(', ')}`) : '');
    // the events in the game's words (each entry's `text`, games/queens/texts.py)
    const events = (v.log || []).slice(-40).reverse()
      .map((e) => el('li', {}, `R${e.round}: `, this.ctx.people ? this.ctx.people.sentence(e) : e.text));
    replace(this.log, events.length ? events : [el('li', {class: 'muted'}, 'No battle yet.')]);
  }
}

/** A seat's Fields, Cities and Princes on the board, as the view counts them. */
// Places from the rules' standing numbers: "1st", "=1st" when level, "out" when eliminated.
export function standingRanks(scores) {
  const ordinal = (n) => `${n}${n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th'}`;
  return scores.map((score) => {
    if (score < 0) return 'out';
    const place = 1 + scores.filter((other) => other > score).length;
    const level = scores.filter((other) => other === score).length > 1;
    return `${level ? '=' : ''}${ordinal(place)}`;
  });
}

function cityPath(cx, cy, s) {
  const p = (dx, dy) => `${(cx + dx * s).toFixed(1)},${(cy + dy * s).toFixed(1)}`;
  return `M${p(-14, 12)} L${p(-14, -6)} L${p(-10, -6)} L${p(-10, -10)} L${p(-5, -10)} L${p(-5, -6)} L${p(-2, -6)} `
    + `L${p(-2, -14)} L${p(2, -14)} L${p(2, -6)} L${p(5, -6)} L${p(5, -10)} L${p(10, -10)} L${p(10, -6)} `
    + `L${p(14, -6)} L${p(14, 12)} Z`;
}

