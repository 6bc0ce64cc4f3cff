// Rise of the Shogun: the map of provinces (static/data/shogun_content.json, drawn from the
// game's map data), castles with roof and court markers, shrines, heroes and peasants; the
// player's own hand, treasures and mission; duels step by step. Every decision is a legal
// action: spaces named by an action are highlighted and clickable, so are cards and treasures;
// the remaining decisions (done, search, pass in a duel, ...) are buttons.
// The map zooms (buttons, wheel, pinch) and pans (drag) through panzoom.js; province labels are
// laid out again for each zoom (its onView hook) so that none overlaps (shogun_labels.js). Cards, treasures and the mission
// show their full data and text on hover; the players' standing is drawn into the table's one
// players panel (`playerDetails`, with a legend), and the logs are the game's own sentences.

import {el, svg, replace, clear, loadJson, titleCase} from '../util.js';
import {seatOf} from '../gameinfo.js';
import {labelPx, layoutLabels} from './shogun_labels.js';
import {drawDuel, finalScores} from './shogun_panels.js';
import {followDuel} from './shogun_phone.js';
import {PanZoom} from '../panzoom.js';

const DATA_URL = '/static/data/shogun_content.json';
const REGION_FILL = ['#e9e2c8', '#dfe8c6', '#efdcc6', '#d9e4d6', '#e8d6dd', '#d8dfe9', '#ece6d2', '#e0d4c0'];
const PHASES = {
  heroes: 'Set-up: choose a hero', castles: 'Set-up: place castles', shrines: 'Set-up: place shrines',
  homes: 'Set-up: choose a home castle', hero_placement: 'Set-up: place your hero', discard: 'Discard phase',
  movement: 'Movement phase', hero: 'Hero phase', court: 'Court phase', cleanup: 'Cleanup phase',
};
const ATTRS = ['body', 'mind', 'ki'];
const ATTR_NAMES = {body: 'Body', mind: 'Mind', ki: 'Ki'};
const DISC = 16;  // a province disc with its pieces, map units (labels keep clear of it)
const ZOOM_MIN = 0.5;
const ZOOM_MAX = 6;
const SPACE_MODES = {recruit: 'recruit', move: 'move the hero', reorganise: 'pick up a peasant', place_peasant: 'put the peasant down', attack: 'attack', claim: 'claim'};
const NEXT_STEPS = new Set(['done', 'duel_pass', 'duel_done']);

/** A 16 x 16 icon of the players panel and its legend (drawn: no emoji font is assumed). */
function icon(kind, colour = '#8a7f6a') {
  const shapes = {
    castle: [svg('path', {d: 'M3,14 L3,8 L13,8 L13,14 Z', fill: '#f4efe2', stroke: '#333'}), svg('path', {d: 'M1,8.5 L8,2 L15,8.5 Z', fill: '#c0392b', stroke: '#333'})],
    chain: [svg('circle', {cx: 4, cy: 8, r: 3, fill: colour, stroke: '#333'}), svg('circle', {cx: 12, cy: 8, r: 3, fill: colour, stroke: '#333'}), svg('path', {d: 'M7,8 L9,8', stroke: '#333', 'stroke-width': 2})],
    reserve: [svg('circle', {cx: 8, cy: 8, r: 5, fill: colour, stroke: '#333'}), svg('path', {d: 'M1,14 L15,14', stroke: '#333'})],
    prisoner: [svg('circle', {cx: 8, cy: 8, r: 5.5, fill: '#ddd', stroke: '#333'}), svg('path', {d: 'M5,2 L5,14 M8,2 L8,14 M11,2 L11,14', stroke: '#333', 'stroke-width': 1.3})],
    treasure: [svg('path', {d: 'M3,6 L6,2 L10,2 L13,6 L8,14 Z', fill: '#4fb3bf', stroke: '#235'})],
    hand: [svg('rect', {x: 2, y: 3, width: 8, height: 11, rx: 1.5, fill: '#fff', stroke: '#333', transform: 'rotate(-10 6 8)'}), svg('rect', {x: 6, y: 2, width: 8, height: 11, rx: 1.5, fill: '#fffbe8', stroke: '#333'})],
    draw: [svg('rect', {x: 4, y: 1.5, width: 9, height: 11, rx: 1.5, fill: '#b9a77a', stroke: '#333'}), svg('rect', {x: 3, y: 3.5, width: 9, height: 11, rx: 1.5, fill: '#8c7a4d', stroke: '#333'})],
    piles: [svg('rect', {x: 1.5, y: 6, width: 3.5, height: 8, fill: '#c0392b'}), svg('rect', {x: 6.25, y: 3, width: 3.5, height: 11, fill: '#2a6fdb'}), svg('rect', {x: 11, y: 8, width: 3.5, height: 6, fill: '#8e44ad'})],
    hero: [svg('path', {d: 'M8,15 L3.5,8 A5,5 0 1 1 12.5,8 Z', fill: colour, stroke: '#333'}), svg('circle', {cx: 8, cy: 6, r: 1.8, fill: '#fff'})],
  };
  return svg('svg', {class: 'sh-icon', width: 16, height: 16, viewBox: '0 0 16 16', 'aria-hidden': 'true'}, ...(shapes[kind] || []));
}

/** A waiting step's sentence ("... their castles") addressed to its own player ("your"). */
function ownWords(text) {
  return text.replace(/\btheir\b/g, 'your').replace(/\bthey\b/g, 'you');
}

export function create(ctx) {
  return new ShogunRenderer(ctx);
}

class ShogunRenderer {
  constructor(ctx) {
    this.ctx = ctx;
    this.frame = null;
    this.pz = null;  // the map's pan and zoom (panzoom.js), laying the labels out per zoom
  }

  async init() {
    this.data = await loadJson(DATA_URL);
    this.spaces = new Map(this.data.map.spaces.map((s) => [s.id, s]));
    const regions = [...new Set(this.data.map.spaces.map((s) => s.region))];
    this.regionFill = new Map(regions.map((r, i) => [r, REGION_FILL[i % REGION_FILL.length]]));
    clear(this.ctx.board);
    this.svg = svg('svg', {class: 'sh-board', testid: 'board', role: 'img', 'aria-label': 'Map of Japan'});
    const xs = this.data.map.spaces.map((s) => s.x);
    const ys = this.data.map.spaces.map((s) => s.y);
    const pad = 70;
    this.mapBox = {x: Math.min(...xs) - pad, y: Math.min(...ys) - pad,
      w: Math.max(...xs) - Math.min(...xs) + 2 * pad, h: Math.max(...ys) - Math.min(...ys) + 2 * pad};
    this.edgeLayer = svg('g');
    for (const e of this.data.map.edges) {
      const a = this.spaces.get(e.a);
      const b = this.spaces.get(e.b);
      this.edgeLayer.append(svg('line', {x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: `sh-edge${e.strait ? ' strait' : ''}`}));
    }
    this.spaceLayer = svg('g');
    this.leaderLayer = svg('g', {class: 'sh-leaders'});
    this.labelLayer = svg('g', {class: 'sh-labels', testid: 'labels'});
    this.hintLayer = svg('g', {class: 'sh-hints'});
    this.svg.append(this.edgeLayer, this.leaderLayer, this.spaceLayer, this.labelLayer, this.hintLayer);
    this.wrap = el('div', {class: 'sh-board-wrap'}, this.svg);
    this.ctx.board.append(this.wrap);
    this.makeLabels();
    const box = this.mapBox;
    this.pz = new PanZoom(this.svg, {extent: () => [box.x, box.y, box.w, box.h],
      limits: () => [box.w / ZOOM_MAX, box.w / ZOOM_MIN], fitTitle: 'Show the whole map',
      onView: (view, s) => this.relayout(s)});
    this.firstView();
    clear(this.ctx.panel);
    this.phaseBox = el('div', {class: 'sh-phase', testid: 'phase'});
    this.duelBox = el('div', {class: 'sh-duel hidden', testid: 'duel'});
    this.actionBox = el('div', {class: 'sh-actions', testid: 'actions-now'});
    this.handBox = el('div', {class: 'sh-hand', testid: 'hand'});
    this.handTitle = el('h3', {}, 'Your hand');
    this.ownBox = el('div', {testid: 'own'});
    this.logBox = el('ol', {class: 'sh-log', testid: 'event-log'});
    this.tip = el('div', {class: 'sh-tip hidden', testid: 'card-tip', role: 'tooltip'});
    document.body.append(this.tip);
    this.ctx.panel.append(this.phaseBox, this.duelBox, this.actionBox, this.handTitle, this.handBox, this.ownBox,
      el('h3', {}, 'Events (newest first)'), this.logBox);
  }

  // -- the map's zoom, pan and labels ----------------------------------------------------------

  /** One text per province, measured once at font size 100 (sizes scale linearly). */
  makeLabels() {
    this.labels = new Map();
    for (const s of this.data.map.spaces) {
      const text = svg('text', {class: 'sh-label', testid: `label-${s.id}`, x: 0, y: 0, 'font-size': 100}, s.name.replace(/ \(.*\)$/, ''));
      this.labelLayer.append(text);
      const bb = text.getBBox();
      this.labels.set(s.id, {text, bb: {x: bb.x, y: bb.y, w: bb.width || 100 * 0.6 * s.name.length, h: bb.height || 120}});
    }
  }

  /** The whole map; on a narrow screen (a phone) the map starts zoomed so that its names can be
   * read, centred on Heian, and is panned by dragging. */
  firstView() {
    this.pz.fit();
    const s = this.pz.pxPerUnit();
    const readable = 0.72;
    if (s < readable && this.svg.clientWidth > 0) {  // (not drawn yet: no size to judge)
      const heian = this.spaces.get(this.data.map.heian);
      this.pz.zoomAt(readable / s, heian.x, heian.y);
    }
  }

  /** The labels again when the scale changed (a pan keeps it: nothing to do). */
  relayout(s) {
    if (!this.labels || (this.laidOutAt && Math.abs(this.laidOutAt - s) / s < 0.01)) return;
    this.laidOutAt = s;
    this.layout(s);
  }

  /** Lay the labels out for `s` screen px per map unit. */
  layout(s) {
    const px = labelPx(s);
    const k = px / s / 100;  // font size in map units / the measured size
    const items = this.data.map.spaces.map((sp) => {
      const {bb} = this.labels.get(sp.id);
      return {id: sp.id, x: sp.x, y: sp.y, r: DISC, w: bb.w * k, h: bb.h * k};
    });
    // zoomed far out, a label goes no further than two rings out: the rest hide until zoomed in
    const boxes = layoutLabels(items, this.mapBox, 2 / s, s < 0.6 ? 2 : 7);
    clear(this.leaderLayer);
    let hidden = 0;
    for (const sp of this.data.map.spaces) {
      const {text, bb} = this.labels.get(sp.id);
      const box = boxes.get(sp.id);
      text.classList.toggle('hidden', !box);
      if (!box) {
        hidden += 1;
        continue;
      }
      text.setAttribute('font-size', (px / s).toFixed(2));
      text.setAttribute('stroke-width', (3 / s).toFixed(2));
      text.setAttribute('x', (box.x - bb.x * k).toFixed(1));
      text.setAttribute('y', (box.y - bb.y * k).toFixed(1));
      if (box.leader) {
        const cx = Math.max(box.x, Math.min(sp.x, box.x + box.w));
        const cy = Math.max(box.y, Math.min(sp.y, box.y + box.h));
        const d = Math.hypot(cx - sp.x, cy - sp.y) || 1;
        this.leaderLayer.append(svg('line', {class: 'sh-leader', x1: sp.x + (cx - sp.x) * 13 / d, y1: sp.y + (cy - sp.y) * 13 / d, x2: cx, y2: cy}));
      }
    }
    this.svg.dataset.labelScale = s.toFixed(3);
    this.svg.dataset.hiddenLabels = String(hidden);
  }

  /** The colour seat `seat` plays (green: the view names pieces by colour). */
  colourName(seat, frame = this.frame) {
    const colours = frame && frame.view && frame.view.colours;
    return (colours && colours[seat]) || seatOf(this.ctx.info, seat).name.toLowerCase();
  }

  /** The CSS colour of a colour of the box: that of the seat named by it in the game's seat
   *  table (from the server, `ctx.info`). */
  css(colour) {
    const seat = ((this.ctx.info && this.ctx.info.seats) || []).find((s) => s.name.toLowerCase() === colour);
    return seat ? seat.colour : '#888';
  }

  seatName(seat, frame = this.frame) {
    const name = titleCase(this.colourName(seat, frame));
    const seatInfo = frame && frame.view && frame.view.seats && frame.view.seats[seat];
    const hero = seatInfo && seatInfo.hero && this.data && this.data.heroes[seatInfo.hero];
    return hero ? `${name} (${hero.name})` : name;
  }

  /** Scores of a view (the replay has views, not state frames): the public VP. */
  viewScores(view) {
    return (view.seats || []).map((s) => s.vp);
  }

  seatColour(seat, frame = this.frame) {
    return this.css(this.colourName(seat, frame));
  }

  prompt(frame) {
    const v = frame.view;
    if (v.duel) return 'your decision in the duel';
    if (v.pending && v.pending.text) return ownWords(v.pending.text);
    return (PHASES[v.phase] || v.phase).toLowerCase();
  }

  finalNote(frame) {
    const v = frame.view;
    return v.end_reason ? `Ended: ${v.end_reason.replace(/_/g, ' ')}.` : '';
  }

  spaceName(id) {
    const s = this.spaces.get(id);
    return s ? s.name : id;
  }

  cardName(id) {
    const c = this.data.cards[id];
    return c ? c.name : id;
  }

  treasureName(id) {
    const t = this.data.treasures[id];
    return t ? t.name : id;
  }

  /** A readable label for one action: the server's text (the game's own words for this
   * position, games/shogun/texts.py), capitalised for a button; the action's JSON when a frame
   * carries no text for it. */
  label(a, text) {
    return text ? text[0].toUpperCase() + text.slice(1) : JSON.stringify(a);
  }

  analyse(frame) {
    const actions = (this.ctx.interactive ? frame.legal_actions : []) || [];
    const bySpace = new Map();
    const byCard = new Map();
    const byTreasure = new Map();
    const other = [];
    const add = (map, k, entry) => {
      if (!map.has(k)) map.set(k, []);
      map.get(k).push(entry);
    };
    actions.forEach((a, i) => {
      const entry = {action: a, label: this.label(a, (frame.descriptions || [])[i])};
      let placed = false;
      for (const field of ['space', 'target', 'source']) {
        if (typeof a[field] === 'string' && this.spaces.has(a[field])) {
          add(bySpace, a[field], entry);
          placed = true;
        }
      }
      for (const field of ['card', 'opening']) {
        if (typeof a[field] === 'string' && this.data.cards[a[field]]) {
          add(byCard, a[field], entry);
          placed = true;
        }
      }
      for (const field of ['treasure', 'item', 'opening']) {
        if (typeof a[field] === 'string' && this.data.treasures[a[field]]) {
          add(byTreasure, a[field], entry);
          placed = true;
        }
      }
      if (!placed) other.push(entry);
    });
    return {actions, bySpace, byCard, byTreasure, other};
  }

  async pick(entries, title, event) {
    if (!entries || !entries.length) return;
    // a hero's move is confirmed like a placement: one click opens its menu, a second sends it
    if (entries.length === 1 && entries[0].action.type !== 'move') {
      this.ctx.send(entries[0].action);
      return;
    }
    const choice = await this.ctx.choose(entries, {title, event});
    if (choice) this.ctx.send(choice.action);
  }

  render(frame) {
    this.frame = frame;
    const legal = this.analyse(frame);
    this.legal = legal;
    this.drawMap(frame.view, legal);
    this.drawPanel(frame, legal);
    this.drawHints();
    followDuel(this, frame.view);  // a phone: the duel that starts comes into view (shogun_phone.js)
  }

  showHints(hints, frame) {
    this.hints = {step: frame.step, list: hints || []};
    this.drawHints();
  }

  /** Hints that name a province are numbered marks on it; the others are in the list only. */
  drawHints() {
    const layer = clear(this.hintLayer);
    if (!this.hints || !this.frame || this.hints.step !== this.frame.step) return;
    const perSpace = new Map();
    for (const hint of this.hints.list) {
      const a = hint.action;
      const field = ['space', 'target', 'source'].find((f) => typeof a[f] === 'string' && this.spaces.has(a[f]));
      if (!field) continue;
      const s = this.spaces.get(a[field]);
      const n = perSpace.get(s.id) || 0;
      perSpace.set(s.id, n + 1);
      const [bx, by] = [s.x + 14 + 16 * n, s.y - 14];
      layer.append(svg('g', {class: 'sh-hint', testid: `hint-mark-${hint.rank}`, dataset: {rank: hint.rank, space: s.id}},
        svg('circle', {cx: s.x, cy: s.y, r: 18, class: 'sh-hint-ring'}),
        svg('circle', {cx: bx, cy: by, r: 9, class: 'sh-hint-badge'}),
        svg('text', {x: bx, y: by + 4.5, class: 'sh-hint-number', 'font-size': 12}, String(hint.rank)),
        svg('title', {}, `${hint.rank}. ${hint.text}`)));
    }
  }

  drawMap(v, legal) {
    const layer = clear(this.spaceLayer);
    const castles = new Map((v.castles || []).map((c) => [c.space, c]));
    const shrines = new Set(v.shrines || []);
    // peasants that score in a chain (the game's table data): marked on the map
    const table = (this.frame && this.frame.table) || {};
    const chain = new Set((table.scores || []).flatMap((x) => x.chain_spaces || []));
    const heroSeat = new Map((v.seats || []).filter((s) => s.hero_space).map((s) => [s.hero_space, s]));
    for (const s of this.data.map.spaces) {
      const entries = legal.bySpace.get(s.id);
      const duelHere = v.duel && v.duel.target && v.duel.target.space === s.id;
      // what the province offers, as a ring of its own (recruit, move the hero, pick up a peasant)
      const kinds = entries ? [...new Set(entries.map((e) => e.action.type))] : [];
      const mode = kinds.length === 1 && SPACE_MODES[kinds[0]] ? ` act-${kinds[0]}` : kinds.length > 1 ? ' act-several' : '';
      const g = svg('g', {class: `sh-cell${entries ? ' target' : ''}${mode}${s.id === this.data.map.heian ? ' sh-heian' : ''}${duelHere ? ' duel-target' : ''}`,
        testid: `space-${s.id}`, dataset: {space: s.id}});
      g.append(svg('circle', {cx: s.x, cy: s.y, r: 13, class: 'sh-space', fill: this.regionFill.get(s.region)}));
      const castle = castles.get(s.id);
      if (castle) {
        const roof = castle.roof ? this.css(castle.roof) : '#f4efe2';
        g.append(svg('path', {class: 'sh-piece', fill: '#f4efe2',
          d: `M${s.x - 10},${s.y + 9} L${s.x - 10},${s.y - 2} L${s.x + 10},${s.y - 2} L${s.x + 10},${s.y + 9} Z`}));
        g.append(svg('path', {class: 'sh-piece', fill: roof,
          d: `M${s.x - 14},${s.y - 1} L${s.x},${s.y - 13} L${s.x + 14},${s.y - 1} Z`}));
        if (castle.court) {
          g.append(svg('circle', {class: 'sh-piece', cx: s.x + 12, cy: s.y + 8, r: 5, fill: this.css(castle.court)}));
        }
      }
      if (shrines.has(s.id)) {
        g.append(svg('path', {class: 'sh-shrine',
          d: `M${s.x - 11},${s.y - 7} L${s.x + 11},${s.y - 7} L${s.x + 11},${s.y - 4} L${s.x - 11},${s.y - 4} Z M${s.x - 8},${s.y - 4} L${s.x - 6},${s.y - 4} L${s.x - 6},${s.y + 9} L${s.x - 8},${s.y + 9} Z M${s.x + 6},${s.y - 4} L${s.x + 8},${s.y - 4} L${s.x + 8},${s.y + 9} L${s.x + 6},${s.y + 9} Z M${s.x - 9},${s.y} L${s.x + 9},${s.y} L${s.x + 9},${s.y + 2} L${s.x - 9},${s.y + 2} Z`}));
      }
      const peasant = v.peasants && v.peasants[s.id];
      if (peasant) {
        g.append(svg('circle', {class: `sh-piece${chain.has(s.id) ? ' sh-chain' : ''}`, cx: s.x - (castle ? 12 : 0), cy: s.y + (castle ? 8 : 0), r: castle ? 5 : 8, fill: this.css(peasant)}));
      }
      const heroColour = v.heroes && v.heroes[s.id];
      if (heroColour) {
        const seat = heroSeat.get(s.id);
        const hero = seat && seat.hero && this.data.heroes[seat.hero];
        g.append(svg('circle', {class: 'sh-piece', cx: s.x, cy: s.y, r: 12, fill: this.css(heroColour), 'stroke-width': 2.5}));
        g.append(svg('text', {x: s.x, y: s.y + 4.5, class: 'sh-hero-letter'}, hero ? hero.name[0] : 'H'));
      }
      const tip = [s.name, castle ? `castle${castle.roof ? ` of ${castle.roof}` : ''}${castle.court ? `, court: ${castle.court}` : ''}` : '',
        shrines.has(s.id) ? 'shrine' : '', peasant ? `${peasant} peasant${chain.has(s.id) ? ' (scores in a chain)' : ''}` : '', heroColour ? `${heroColour} hero` : '']
        .filter(Boolean).join(' · ');
      g.append(svg('title', {}, entries ? `${tip}\n→ ${entries.map((e) => e.label).join('\n→ ')}` : tip));
      if (entries) g.addEventListener('click', (e) => this.pick(entries, s.name, e));
      layer.append(g);
    }
  }

  cardNode(id, entries, extra = {}) {
    const c = this.data.cards[id] || {name: id};
    const node = el(entries ? 'button' : 'div', {
      class: `sh-card attr-${c.attribute || 'none'}${entries ? ' playable' : ''}`,
      testid: extra.testid || `card-${id}`, type: entries ? 'button' : undefined, dataset: {card: id},
      'aria-label': this.cardTipLines(id).join(' '),
    },
    el('span', {class: 'name'}, c.name),
    el('span', {class: 'meta'}, [c.category && c.category.replace(/_/g, ' '), c.attribute && ATTR_NAMES[c.attribute]].filter(Boolean).join(' · ')),
    el('span', {class: 'meta'}, [c.value !== null && c.value !== undefined ? `value ${c.value}` : '', c.cost !== undefined && c.cost !== null ? `cost ${c.cost}` : '', c.speed || ''].filter(Boolean).join(' · ')),
    c.text ? el('span', {class: 'text'}, c.text) : '');
    this.attachTip(node, () => this.cardTip(id, entries));
    if (entries) node.addEventListener('click', (e) => this.pick(entries, c.name, e));
    return node;
  }

  // -- tooltips: a card's, a treasure's, the mission's full data ---------------------------------

  /** Show `make()` (a list of nodes) next to `node` on hover and on keyboard focus. */
  attachTip(node, make) {
    const show = () => {
      replace(this.tip, make());
      this.tip.classList.remove('hidden');
      const r = node.getBoundingClientRect();
      const t = this.tip.getBoundingClientRect();
      let x = r.left - t.width - 8;
      if (x < 4) x = Math.min(r.right + 8, window.innerWidth - t.width - 4);
      const y = Math.max(4, Math.min(r.top, window.innerHeight - t.height - 4));
      this.tip.style.left = `${Math.max(4, x)}px`;
      this.tip.style.top = `${y}px`;
      this.tip.dataset.for = node.dataset.card || node.dataset.treasure || node.dataset.testid || '';
    };
    const hide = () => this.tip.classList.add('hidden');
    node.addEventListener('mouseenter', show);
    node.addEventListener('focus', show);
    node.addEventListener('mouseleave', hide);
    node.addEventListener('blur', hide);
    node.addEventListener('click', hide);
  }

  cardTipLines(id) {
    const c = this.data.cards[id];
    if (!c) return [id];
    const g = this.data.glossary || {};
    const hero = this.data.heroes[c.hero] || {};
    const room = hero.attributes && hero.attributes[c.attribute];
    return [
      `${c.name} (${hero.name || c.hero} card).`,
      c.value !== null && c.value !== undefined ? `Value ${c.value}.` : '',
      `Cost ${c.cost} on the ${ATTR_NAMES[c.attribute] || c.attribute} pile${room ? ` (the ${hero.name}'s ${ATTR_NAMES[c.attribute]} score is ${room})` : ''}.`,
      c.text || '',
      (g.categories || {})[c.category] || '',
      (g.speeds || {})[c.speed] || '',
    ].filter(Boolean);
  }

  cardTip(id, entries) {
    const c = this.data.cards[id] || {name: id};
    const g = this.data.glossary || {};
    const hero = this.data.heroes[c.hero] || {};
    const room = hero.attributes && hero.attributes[c.attribute];
    const row = (k, v) => el('tr', {}, el('th', {}, k), el('td', {}, v));
    return [
      el('div', {class: 'tip-title'}, c.name),
      el('table', {class: 'tip-data'}, el('tbody', {},
        row('Hero', hero.name || c.hero || '—'),
        row('Category', (c.category || '').replace(/_/g, ' ')),
        row('Value', c.value !== null && c.value !== undefined ? String(c.value) : '— (special)'),
        row('Cost', `${c.cost} on the ${ATTR_NAMES[c.attribute] || c.attribute} pile${room ? ` (at most ${room} there)` : ''}`),
        row('Speed', c.speed || ''))),
      c.text ? el('p', {class: 'tip-text', testid: 'card-tip-text'}, c.text) : el('p', {class: 'tip-text muted'}, 'No text: only its value counts.'),
      el('p', {class: 'tip-gloss'}, (g.categories || {})[c.category] || ''),
      el('p', {class: 'tip-gloss'}, (g.speeds || {})[c.speed] || ''),
      entries ? el('p', {class: 'tip-actions'}, entries.map((e) => `→ ${e.label}`).join('\n')) : '',
    ];
  }

  treasureTip(id, entries) {
    const t = this.data.treasures[id] || {name: id};
    const g = (this.data.glossary || {}).treasures || {};
    const row = (k, v) => el('tr', {}, el('th', {}, k), el('td', {}, v));
    const kind = t.type === 'monster' ? 'Monster' : `Item${t.subtype ? ` (${t.subtype})` : ''}`;
    return [
      el('div', {class: 'tip-title'}, t.name),
      el('table', {class: 'tip-data'}, el('tbody', {},
        row('Kind', kind),
        t.type === 'monster' ? row('Attack value', String(t.attack_value)) : '',
        t.type === 'monster' ? row('Range', `${t.range} province${t.range === 1 ? '' : 's'}`) : '',
        t.vp ? row('Victory points', String(t.vp)) : '')),
      el('p', {class: 'tip-text', testid: 'card-tip-text'}, t.effect || ''),
      el('p', {class: 'tip-gloss'}, g[t.type === 'monster' ? 'monster' : t.subtype] || ''),
      entries ? el('p', {class: 'tip-actions'}, entries.map((e) => `→ ${e.label}`).join('\n')) : '',
    ];
  }

  missionTip(id, prog) {
    const m = this.data.missions[id] || {name: id, condition: ''};
    return [
      el('div', {class: 'tip-title'}, `Mission: ${m.name}${prog ? ` at ${prog.castle_name}` : ''}`),
      el('p', {class: 'tip-text', testid: 'card-tip-text'}, prog ? prog.condition : m.condition),
      prog ? el('p', {class: 'tip-text'}, `Progress: ${prog.text}`) : '',
      m.on_complete ? el('p', {class: 'tip-text'}, `When completed: ${m.on_complete}`) : '',
      el('p', {class: 'tip-gloss'}, 'Completing it turns the court marker of the claimed castle into its roof: the castle is yours.'),
    ];
  }

  drawPanel(frame, legal) {
    const v = frame.view;
    const me = frame.seat;
    // phase and situation
    const over = v.is_terminal;
    const bits = [el('div', {}, el('b', {testid: 'phase-name'}, v.phase_text || (over ? 'Game over' : PHASES[v.phase] || titleCase(v.phase))),
      v.round ? ` · round ${v.round}${v.max_rounds ? ` of ${v.max_rounds}` : ''}` : '')];
    if (over) bits.push(this.finalScores(v));
    else if (v.active !== undefined && v.active >= 0) bits.push(el('div', {}, 'Turn of ', el('span', {class: 'swatch', style: `background:${this.seatColour(v.active)}`}), ` ${this.seatName(v.active)}`));
    bits.push(el('div', {}, `Victory at ${v.threshold} VP`));
    if (v.emperor !== undefined && v.emperor >= 0) bits.push(el('div', {}, `Emperor: ${this.seatName(v.emperor)}`));
    if (v.decree) bits.push(el('div', {}, `Decree: the Court action this turn must be “${v.decree}”.`));
    if (v.pending) {
      const drawn = Array.isArray(v.pending.drawn) ? `: ${v.pending.drawn.map((t) => this.treasureName(t)).join(', ')}` : '';
      bits.push(el('div', {testid: 'pending', dataset: {kind: v.pending.kind}}, el('span', {class: 'swatch', style: `background:${this.seatColour(v.pending.seat)}`}),
        v.pending.seat === frame.seat ? ` You must ${ownWords(v.pending.text || v.pending.kind.replace(/_/g, ' '))}${drawn}.`
          : ` ${this.seatName(v.pending.seat)} must ${v.pending.text || v.pending.kind.replace(/_/g, ' ')}${drawn}.`));
    }
    if (v.outside_play) {
      bits.push(el('div', {}, `${this.seatName(v.outside_play.seat)} plays ${this.cardName(v.outside_play.card)}${v.outside_play.opponent !== undefined && v.outside_play.opponent !== null ? ` against ${this.seatName(v.outside_play.opponent)}` : ''}`));
    }
    replace(this.phaseBox, bits);
    this.drawDuel(v);
    // actions not tied to a space, card or treasure
    const counts = {};
    const buttons = legal.other.map((entry) => {
      const t = entry.action.type;
      counts[t] = (counts[t] || 0) + 1;
      const testid = counts[t] === 1 ? `act-${t}` : `act-${t}-${counts[t]}`;
      // the primary button is the turn's usual next step (end the phase, pass), never a
      // restricted side action such as abandoning the claimed castle
      return el('button', {type: 'button', class: NEXT_STEPS.has(t) ? 'primary' : '', testid,
        onclick: () => this.ctx.send(entry.action)}, entry.label);
    });
    const spaceCount = legal.bySpace.size;
    if (spaceCount) {
      // which ring means which action, for the kinds on offer now
      const offered = new Set([...legal.bySpace.values()].flat().map((e) => e.action.type));
      const keys = Object.keys(SPACE_MODES).filter((k) => offered.has(k));
      buttons.unshift(el('div', {class: 'hint', style: 'width:100%', testid: 'space-modes'}, `Click a highlighted province (${spaceCount}) on the map.`,
        offered.size > 1 && keys.length ? el('span', {}, ' ', ...keys.map((k) => el('span', {class: `sh-mode act-${k}`}, SPACE_MODES[k])), ' · two rings: choose') : ''));
    }
    replace(this.actionBox, buttons);
    // own hand
    const mine = me !== null && me !== undefined && v.cards ? v.cards.find((c) => c.seat === me) : null;
    if (mine && mine.hand) {
      this.handTitle.classList.remove('hidden');
      replace(this.handBox, mine.hand.length
        ? mine.hand.map((id, i) => this.cardNode(id, legal.byCard.get(id), {testid: mine.hand.indexOf(id) === i ? `card-${id}` : `card-${id}-${i}`}))
        : el('p', {class: 'muted'}, 'No card in hand.'));
    } else {
      this.handTitle.classList.add('hidden');
      clear(this.handBox);
    }
    // cards played from elsewhere (e.g. a card named by an action but not in the shown hand)
    const extraCards = [...legal.byCard.keys()].filter((id) => !(mine && mine.hand && mine.hand.includes(id)));
    if (extraCards.length) this.handBox.append(...extraCards.map((id) => this.cardNode(id, legal.byCard.get(id))));
    // own treasures and mission
    const own = [];
    const seat = me !== null && me !== undefined ? v.seats[me] : null;
    const treasureIds = new Set([...(seat && seat.treasures ? seat.treasures : []), ...legal.byTreasure.keys()]);
    if (treasureIds.size) {
      own.push(el('h3', {}, 'Treasures'), el('div', {class: 'sh-chips'}, [...treasureIds].map((id) => {
        const entries = legal.byTreasure.get(id);
        const t = this.data.treasures[id] || {};
        const chip = el(entries ? 'button' : 'span', {class: `sh-chip${entries ? ' playable' : ''}`, testid: `treasure-${id}`,
          type: entries ? 'button' : undefined, tabindex: entries ? undefined : 0, dataset: {treasure: id}},
        `${t.name || id}${t.type ? ` (${t.type})` : ''}`);
        this.attachTip(chip, () => this.treasureTip(id, entries));
        if (entries) chip.addEventListener('click', (e) => this.pick(entries, t.name || id, e));
        return chip;
      })));
    }
    if (seat && seat.mission) {
      const m = this.data.missions[seat.mission] || {name: seat.mission, condition: ''};
      const prog = seat.mission_progress;  // the game's reading at the courted castle
      const chip = el('div', {class: 'sh-chip', testid: 'mission', tabindex: 0},
        prog ? `${m.name} at ${prog.castle_name}: ${prog.condition}` : `${m.name}: ${m.condition}`,
        prog ? el('b', {testid: 'mission-progress'}, ` (${prog.text})`) : '');
      this.attachTip(chip, () => this.missionTip(seat.mission, prog));
      own.push(el('h3', {}, 'Mission'), chip);
    }
    replace(this.ownBox, own);
    this.tip.classList.add('hidden');
    this.drawLog(v);
  }

  /** The end: every seat's score by source, its mission and treasures (shogun_panels.js). */
  finalScores(v) {
    return finalScores(this, v);
  }

  drawDuel(v) {
    drawDuel(this, v);
  }

  // -- the players panel (drawn by the table into its one players list) ------------------------

  /** Short icons of the standing, each with its word in the legend and a tooltip. */
  playerDetails(frame, seat) {
    const v = frame.view || {};
    const s = (v.seats || [])[seat];
    if (!s) return null;
    const c = (v.cards || []).find((x) => x.seat === seat);
    const hero = s.hero && this.data.heroes[s.hero];
    const colour = this.seatColour(seat, frame);
    const chip = (kind, text, title, key) => el('span', {class: 'sh-stat', title, testid: `stat-${key}-${seat}`},
      icon(kind, colour), ` ${text}`);
    const prisoners = Object.entries(s.prisoners || {});
    const out = [
      chip('castle', `${s.castles}`, `${s.castles} castle${s.castles === 1 ? '' : 's'} controlled (4 VP each)`, 'castles'),
      chip('chain', `${s.chain_vp}`, `${s.chain_vp} VP from peasants connected to their castles (1 each)`, 'chain'),
      chip('reserve', `${s.reserve}`, `${s.reserve} peasant${s.reserve === 1 ? '' : 's'} in reserve (not on the board)`, 'reserve'),
      el('span', {class: 'sh-stat', title: prisoners.length ? `prisoners held (1 VP each): ${prisoners.map(([col, n]) => `${n} ${col}`).join(', ')}` : 'no prisoner held', testid: `stat-prisoners-${seat}`},
        icon('prisoner'), prisoners.length
          ? prisoners.map(([col, n]) => el('span', {class: 'sh-prisoner'}, ' ', el('span', {class: 'swatch', style: `background:${this.css(col)}`}), `×${n}`))
          : ' 0'),
      chip('treasure', `${s.treasure_count}`, `${s.treasure_count} treasure${s.treasure_count === 1 ? '' : 's'} held (hidden from the others; at most 3)`, 'treasures'),
    ];
    if (c) {
      out.push(chip('hand', `${c.hand_size}`, `${c.hand_size} card${c.hand_size === 1 ? '' : 's'} in hand`, 'hand'));
      out.push(chip('draw', `${c.draw_size}`, `${c.draw_size} card${c.draw_size === 1 ? '' : 's'} left in the draw pile`, 'draw'));
      const piles = ATTRS.filter((a) => a in (c.pile_totals || {})).map((a) => {
        const room = hero && hero.attributes[a];
        const onPile = (c.piles[a] || []).map((id) => `${this.cardName(id)} (${(this.data.cards[id] || {}).cost ?? '?'})`);
        return el('span', {class: `sh-pile attr-${a}`, title: `${ATTR_NAMES[a]} pile: ${onPile.length ? onPile.join(', ') : 'empty'}; cost ${c.pile_totals[a]}${room ? ` of at most ${room} (the ${hero.name}'s ${ATTR_NAMES[a]} score)` : ''}`},
          `${ATTR_NAMES[a]} ${c.pile_totals[a]}${room ? `/${room}` : ''}`);
      });
      out.push(el('span', {class: 'sh-stat sh-piles', testid: `stat-piles-${seat}`}, icon('piles'), ...piles));
      const discard = c.discard || [];  // public, card by card (SHO-DUEL-26)
      out.push(el('span', {class: 'sh-stat', testid: `stat-discard-${seat}`,
        title: discard.length ? `discard pile, oldest first: ${discard.map((id) => this.cardName(id)).join(', ')}` : 'discard pile: empty'},
      ` discard ${discard.length}`));
    }
    if (s.hero_space) out.push(el('span', {class: 'sh-stat', title: 'where the hero stands', testid: `stat-hero-${seat}`}, icon('hero', colour), ` ${this.spaceName(s.hero_space)}`));
    return el('div', {class: 'sh-stats'}, out);
  }

  /** What the icons of `playerDetails` mean. */
  playersLegend() {
    const item = (kind, text) => el('li', {}, icon(kind), ` ${text}`);
    return el('details', {class: 'sh-legend', testid: 'players-legend', open: true},
      el('summary', {}, 'What the icons mean'),
      el('ul', {},
        item('castle', 'castles controlled (4 VP each)'),
        item('chain', 'VP from peasants connected to their castles'),
        item('reserve', 'peasants in reserve'),
        item('prisoner', 'prisoners held, by colour (1 VP each)'),
        item('treasure', 'treasures held (hidden; scoring ones count at the end)'),
        item('hand', 'cards in hand'),
        item('draw', 'cards left in the draw pile'),
        item('piles', 'Body / Mind / Ki piles: cost of the cards on the pile / the hero\'s score (the most it may hold)'),
        item('hero', 'where the hero stands'),
        el('li', {class: 'muted'}, 'The number on the right: victory points (others\' hidden treasures not counted).')));
  }

  scoreTitle() {
    return 'victory points';
  }

  drawLog(v) {
    const items = (v.log || []).slice().reverse().filter((e) => e.event !== 'turn').slice(0, 40).map((e) => el('li', {dataset: {event: e.event}},
      // one count of time on the table: the round, as in the phase box
      el('span', {class: 'log-step', title: e.round ? `round ${e.round}` : 'set-up'}, e.turn && e.round ? `R${e.round}` : 'Set-up'), ' ',
      e.words && this.ctx.people ? this.ctx.people.sentence(e)  // each seat as who holds it (people.js)
        : [e.seat >= 0 ? el('span', {class: 'swatch', style: `background:${this.seatColour(e.seat)}`}) : '',
          ` ${e.text || e.event.replace(/_/g, ' ')}`]));
    replace(this.logBox, items.length ? items : [el('li', {class: 'muted'}, 'Nothing yet.')]);
  }
}
