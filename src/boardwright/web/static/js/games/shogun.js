// Rise of the Shogun: the map of provinces (static/data/shogun_content.json, drawn from the
// game's map data), castles with roof and court markers, shrines, heroes and peasants; the
// player's own hand, treasures and mission; duels step by step. Every decision is a legal
// action: spaces named by an action are highlighted and clickable, so are cards and treasures;
// the remaining decisions (done, search, pass in a duel, ...) are buttons.

import {el, svg, replace, clear, loadJson, titleCase} from '../util.js';

const DATA_URL = '/static/data/shogun_content.json';
const CSS = {green: '#2f9e44', red: '#d8322a', blue: '#2a64d8', yellow: '#e5b914'};
const REGION_FILL = ['#e9e2c8', '#dfe8c6', '#efdcc6', '#d9e4d6', '#e8d6dd', '#d8dfe9', '#ece6d2', '#e0d4c0'];
const PHASES = {
  heroes: 'Set-up: choose a hero', castles: 'Set-up: place castles', shrines: 'Set-up: place shrines',
  homes: 'Set-up: choose a home castle', hero_placement: 'Set-up: place your hero', discard: 'Discard phase',
  movement: 'Movement phase', hero: 'Hero phase', court: 'Court phase', cleanup: 'Cleanup phase',
};
const PENDING = {
  keep: 'keep one of the treasures found', relocate_shrine: 'put the searched shrine somewhere else',
  clear: 'clear pile tops', recruit: 'recruit peasants', reorganise: 'reorganise peasants',
  relocate_hero: 'move the beaten hero', exchange: 'exchange prisoners', return_treasure: 'return a treasure',
  before_decree: 'open the Court phase before the decree', theft: 'take a treasure or leave it',
};

export function create(ctx) {
  return new ShogunRenderer(ctx);
}

class ShogunRenderer {
  constructor(ctx) {
    this.ctx = ctx;
    this.frame = null;
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
    const pad = 40;
    this.svg.setAttribute('viewBox', `${Math.min(...xs) - pad} ${Math.min(...ys) - pad} ${Math.max(...xs) - Math.min(...xs) + 2 * pad} ${Math.max(...ys) - Math.min(...ys) + 2 * pad}`);
    this.edgeLayer = svg('g');
    for (const e of this.data.map.edges) {
      const a = this.spaces.get(e.a);
      const b = this.spaces.get(e.b);
      this.edgeLayer.append(svg('line', {x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: `sh-edge${e.strait ? ' strait' : ''}`}));
    }
    this.spaceLayer = svg('g');
    this.hintLayer = svg('g', {class: 'sh-hints'});
    this.svg.append(this.edgeLayer, this.spaceLayer, this.hintLayer);
    this.ctx.board.append(el('div', {class: 'sh-board-wrap'}, this.svg));
    clear(this.ctx.panel);
    this.phaseBox = el('div', {class: 'sh-phase', testid: 'phase'});
    this.duelBox = el('div', {class: 'sh-duel hidden', testid: 'duel'});
    this.actionBox = el('div', {class: 'sh-actions', testid: 'actions-now'});
    this.handBox = el('div', {class: 'sh-hand', testid: 'hand'});
    this.handTitle = el('h3', {}, 'Your hand');
    this.ownBox = el('div', {testid: 'own'});
    this.seatTable = el('table', {class: 'sh-table', testid: 'scoreboard'});
    this.logBox = el('ol', {class: 'sh-log', testid: 'event-log'});
    this.ctx.panel.append(this.phaseBox, this.duelBox, this.actionBox, this.handTitle, this.handBox, this.ownBox,
      el('h3', {}, 'Players'), this.seatTable, el('h3', {}, 'Events'), this.logBox);
  }

  title() {
    return 'Rise of the Shogun';
  }

  colourName(seat, frame = this.frame) {
    const colours = frame && frame.view && frame.view.colours;
    return (colours && colours[seat]) || ['green', 'red', 'blue', 'yellow'][seat] || `seat ${seat + 1}`;
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
    return CSS[this.colourName(seat, frame)] || '#888';
  }

  prompt(frame) {
    const v = frame.view;
    if (v.duel) return 'your decision in the duel';
    if (v.pending && PENDING[v.pending.kind]) return PENDING[v.pending.kind];
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

  /** A readable label for one action (falls back on the server's description). */
  label(a, fallback) {
    const S = (id) => this.spaceName(id);
    const C = (id) => this.cardName(id);
    const Tr = (id) => this.treasureName(id);
    switch (a.type) {
      case 'choose_hero': return `Choose the ${(this.data.heroes[a.hero] || {}).name || a.hero}`;
      case 'place_castle': return `Place a castle in ${S(a.space)}`;
      case 'place_shrine': return `Place a shrine in ${S(a.space)}`;
      case 'choose_home': return `Home castle: ${S(a.space)}`;
      case 'place_hero': return `Put your hero in ${S(a.space)}`;
      case 'discard_card': return `Discard ${C(a.card)}`;
      case 'clear_pile': return `Clear the ${a.attribute} pile`;
      case 'done': return 'Done';
      case 'move': return `Move to ${S(a.space)}`;
      case 'search': return 'Search the shrine';
      case 'claim': return `Claim the castle in ${S(a.space)}`;
      case 'abandon': return 'Abandon the claim';
      case 'attack': return `Attack ${S(a.space)} with ${this.data.cards[a.opening] ? C(a.opening) : Tr(a.opening)}`;
      case 'convert': return `Convert ${S(a.target)} from ${S(a.source)} with ${C(a.card)}`;
      case 'convert_pick': return `Convert the peasant in ${S(a.space)}`;
      case 'recruit': return `Recruit in ${S(a.space)}`;
      case 'reorganise': return `Pick up the peasant in ${S(a.source)}`;
      case 'place_peasant': return `Put the peasant in ${S(a.space)}`;
      case 'cancel_reorganise': return 'Cancel the reorganisation';
      case 'decree': return `Decree: ${a.kind}`;
      case 'defy': return `Defy the decree (discard ${Tr(a.treasure)})`;
      case 'use_item': return `Use ${Tr(a.treasure)}`;
      case 'discard_treasure': return `Discard ${Tr(a.treasure)}`;
      case 'keep_treasure': return `Keep ${Tr(a.treasure)}`;
      case 'return_treasure': return `Return ${Tr(a.treasure)}`;
      case 'relocate_shrine': return `Move the shrine to ${S(a.space)}`;
      case 'relocate_hero': return `Send the beaten hero to ${S(a.space)}`;
      case 'exchange': return `Give a ${a.colour} prisoner to ${this.seatName(a.opponent)}`;
      case 'play_special': return `Play ${C(a.card)} against ${this.seatName(a.opponent)}`;
      case 'take_peasant': return `Take the peasant in ${S(a.space)}`;
      case 'kill': return `Kill the peasant in ${S(a.space)}`;
      case 'take_treasure': return 'Take a random treasure';
      case 'duel_play': return `Play ${C(a.card)}${a.target !== undefined ? ` on play #${a.target + 1}` : ''}`;
      case 'duel_item': return `Use ${Tr(a.item)}`;
      case 'duel_pass': return 'Pass';
      case 'duel_discard': return `Discard ${C(a.card)}`;
      case 'duel_pick': return `They discard ${C(a.card)}`;
      case 'duel_clear': return `Clear ${C(a.card)}`;
      case 'duel_recall': return `Recall ${C(a.card)}`;
      case 'duel_done': return 'Done';
      default: return fallback || JSON.stringify(a);
    }
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
    if (entries.length === 1) {
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
    const heroSeat = new Map((v.seats || []).filter((s) => s.hero_space).map((s) => [s.hero_space, s]));
    for (const s of this.data.map.spaces) {
      const entries = legal.bySpace.get(s.id);
      const duelHere = v.duel && v.duel.target && v.duel.target.space === s.id;
      const g = svg('g', {class: `sh-cell${entries ? ' target' : ''}${s.id === this.data.map.heian ? ' sh-heian' : ''}${duelHere ? ' duel-target' : ''}`,
        testid: `space-${s.id}`, dataset: {space: s.id}});
      g.append(svg('circle', {cx: s.x, cy: s.y, r: 13, class: 'sh-space', fill: this.regionFill.get(s.region)}));
      g.append(svg('text', {x: s.x, y: s.y + 24, class: 'sh-label'}, s.name.replace(/ \(.*\)$/, '')));
      const castle = castles.get(s.id);
      if (castle) {
        const roof = castle.roof ? CSS[castle.roof] : '#f4efe2';
        g.append(svg('path', {class: 'sh-piece', fill: '#f4efe2',
          d: `M${s.x - 10},${s.y + 9} L${s.x - 10},${s.y - 2} L${s.x + 10},${s.y - 2} L${s.x + 10},${s.y + 9} Z`}));
        g.append(svg('path', {class: 'sh-piece', fill: roof,
          d: `M${s.x - 14},${s.y - 1} L${s.x},${s.y - 13} L${s.x + 14},${s.y - 1} Z`}));
        if (castle.court) {
          g.append(svg('circle', {class: 'sh-piece', cx: s.x + 12, cy: s.y + 8, r: 5, fill: CSS[castle.court]}));
        }
      }
      if (shrines.has(s.id)) {
        g.append(svg('path', {class: 'sh-shrine',
          d: `M${s.x - 11},${s.y - 7} L${s.x + 11},${s.y - 7} L${s.x + 11},${s.y - 4} L${s.x - 11},${s.y - 4} Z M${s.x - 8},${s.y - 4} L${s.x - 6},${s.y - 4} L${s.x - 6},${s.y + 9} L${s.x - 8},${s.y + 9} Z M${s.x + 6},${s.y - 4} L${s.x + 8},${s.y - 4} L${s.x + 8},${s.y + 9} L${s.x + 6},${s.y + 9} Z M${s.x - 9},${s.y} L${s.x + 9},${s.y} L${s.x + 9},${s.y + 2} L${s.x - 9},${s.y + 2} Z`}));
      }
      const peasant = v.peasants && v.peasants[s.id];
      if (peasant) {
        g.append(svg('circle', {class: 'sh-piece', cx: s.x - (castle ? 12 : 0), cy: s.y + (castle ? 8 : 0), r: castle ? 5 : 8, fill: CSS[peasant]}));
      }
      const heroColour = v.heroes && v.heroes[s.id];
      if (heroColour) {
        const seat = heroSeat.get(s.id);
        const hero = seat && seat.hero && this.data.heroes[seat.hero];
        g.append(svg('circle', {class: 'sh-piece', cx: s.x, cy: s.y, r: 12, fill: CSS[heroColour], 'stroke-width': 2.5}));
        g.append(svg('text', {x: s.x, y: s.y + 4.5, class: 'sh-hero-letter'}, hero ? hero.name[0] : 'H'));
      }
      const tip = [s.name, castle ? `castle${castle.roof ? ` of ${castle.roof}` : ''}${castle.court ? `, court: ${castle.court}` : ''}` : '',
        shrines.has(s.id) ? 'shrine' : '', peasant ? `${peasant} peasant` : '', heroColour ? `${heroColour} hero` : '']
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
      title: [c.text, entries ? entries.map((e) => `→ ${e.label}`).join('\n') : ''].filter(Boolean).join('\n'),
    },
    el('span', {class: 'name'}, c.name),
    el('span', {class: 'meta'}, [c.category && c.category.replace(/_/g, ' '), c.attribute].filter(Boolean).join(' · ')),
    el('span', {class: 'meta'}, [c.value !== null && c.value !== undefined ? `value ${c.value}` : '', c.cost !== undefined && c.cost !== null ? `cost ${c.cost}` : '', c.speed || ''].filter(Boolean).join(' · ')));
    if (entries) node.addEventListener('click', (e) => this.pick(entries, c.name, e));
    return node;
  }

  drawPanel(frame, legal) {
    const v = frame.view;
    const me = frame.seat;
    // phase and situation
    const bits = [el('div', {}, el('b', {}, PHASES[v.phase] || titleCase(v.phase)),
      v.round ? ` · round ${v.round}${v.max_rounds ? ` of ${v.max_rounds}` : ''}` : '')];
    if (v.active !== undefined && v.active >= 0) bits.push(el('div', {}, 'Turn of ', el('span', {class: 'swatch', style: `background:${this.seatColour(v.active)}`}), ` ${this.seatName(v.active)}`));
    bits.push(el('div', {}, `Victory at ${v.threshold} VP`));
    if (v.emperor !== undefined && v.emperor >= 0) bits.push(el('div', {}, `Emperor: ${this.seatName(v.emperor)}`));
    if (v.decree) bits.push(el('div', {}, `Decree: ${typeof v.decree === 'string' ? v.decree : JSON.stringify(v.decree)}`));
    if (v.pending) {
      const drawn = Array.isArray(v.pending.drawn) ? `: ${v.pending.drawn.map((t) => this.treasureName(t)).join(', ')}` : '';
      bits.push(el('div', {testid: 'pending'}, `Waiting: ${this.seatName(v.pending.seat)} must ${PENDING[v.pending.kind] || v.pending.kind.replace(/_/g, ' ')}${drawn}`));
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
      return el('button', {type: 'button', class: t === 'done' || t === 'duel_pass' ? '' : 'primary', testid,
        onclick: () => this.ctx.send(entry.action)}, entry.label);
    });
    const spaceCount = legal.bySpace.size;
    if (spaceCount) buttons.unshift(el('div', {class: 'hint', style: 'width:100%'}, `Click a highlighted province (${spaceCount}) on the map.`));
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
          type: entries ? 'button' : undefined,
          title: [t.effect, entries ? entries.map((e) => `→ ${e.label}`).join('\n') : ''].filter(Boolean).join('\n')},
        `${t.name || id}${t.type ? ` (${t.type})` : ''}`);
        if (entries) chip.addEventListener('click', (e) => this.pick(entries, t.name || id, e));
        return chip;
      })));
    }
    if (seat && seat.mission) {
      const m = this.data.missions[seat.mission] || {name: seat.mission, condition: ''};
      own.push(el('h3', {}, 'Mission'), el('div', {class: 'sh-chip', testid: 'mission', title: m.condition}, `${m.name}: ${m.condition}`));
    }
    replace(this.ownBox, own);
    this.drawSeats(frame);
    this.drawLog(v);
  }

  drawDuel(v) {
    const d = v.duel;
    if (!d) {
      this.duelBox.classList.add('hidden');
      return;
    }
    const target = d.target ? `${d.target.kind}${d.target.space ? ` in ${this.spaceName(d.target.space)}` : ''}` : '';
    const plays = (d.plays || []).map((p) => el('li', {class: p.active && !p.purged ? '' : 'inactive'},
      el('span', {class: 'swatch', style: `background:${this.seatColour(p.seat)}`}), ` ${this.cardName(p.card)} `,
      el('span', {class: 'muted'}, `${p.category.replace(/_/g, ' ')}${p.value !== null && p.value !== undefined ? ` ${p.value}` : ''}${p.target !== null && p.target !== undefined ? ` → #${p.target + 1}` : ''}`)));
    replace(this.duelBox,
      el('h4', {}, `${d.conversion ? 'Conversion' : 'Duel'}: ${this.seatName(d.attacker)} → ${this.seatName(d.defender)}`),
      el('div', {}, `Target: ${target} · step: ${d.phase}`),
      el('div', {class: 'totals', testid: 'duel-totals'}, `Attack ${d.attack_total} — Block ${d.block_total}`),
      plays.length ? el('ol', {}, plays) : el('div', {class: 'muted'}, 'No card played yet.'),
      d.pending ? el('div', {}, `Choice: ${JSON.stringify(d.pending)}`) : '',
      d.revealed_hand ? el('div', {}, `Their hand: ${d.revealed_hand.map((c) => this.cardName(c)).join(', ')}`) : '',
      d.outcome ? el('div', {}, el('b', {}, `Outcome: ${JSON.stringify(d.outcome)}`)) : '');
    this.duelBox.classList.remove('hidden');
  }

  drawSeats(frame) {
    const v = frame.view;
    const cards = new Map((v.cards || []).map((c) => [c.seat, c]));
    const head = el('tr', {}, [['Player', ''], ['VP', 'victory points'], ['Cas.', 'castles controlled'],
      ['Res.', 'peasants in reserve'], ['Prisoners', 'prisoners held'], ['Cards', 'hand / draw pile, then pile totals Body Mind Ki'],
      ['Tr.', 'treasures held']].map(([h, title]) => el('th', {title}, h)));
    const rows = (v.seats || []).map((s) => {
      const c = cards.get(s.seat);
      const prisoners = Object.entries(s.prisoners || {}).map(([colour, n]) => `${n} ${colour}`).join(', ') || '—';
      const piles = c ? Object.entries(c.pile_totals || {}).map(([k, n]) => `${k[0].toUpperCase()}${n}`).join(' ') : '';
      return el('tr', {class: s.seat === v.active ? 'current' : '', testid: `score-${s.seat}`},
        el('td', {}, el('span', {class: 'swatch', style: `background:${this.seatColour(s.seat)}`}), ` ${this.seatName(s.seat)}`,
          s.seat === frame.seat ? ' (you)' : ''),
        el('td', {class: 'num', testid: `score-value-${s.seat}`}, String(s.vp)),
        el('td', {class: 'num'}, String(s.castles)),
        el('td', {class: 'num'}, String(s.reserve)),
        el('td', {}, prisoners),
        el('td', {title: 'hand / draw pile; pile totals'}, c ? `${c.hand_size}/${c.draw_size} ${piles}` : ''),
        el('td', {class: 'num'}, String(s.treasure_count)));
    });
    replace(this.seatTable, el('thead', {}, head), el('tbody', {}, rows));
  }

  logValue(k, val) {
    const one = (x) => {
      if (typeof x === 'string' && this.spaces.has(x)) return this.spaceName(x);
      if (typeof x === 'string' && this.data.cards[x]) return this.cardName(x);
      if (typeof x === 'string' && this.data.treasures[x]) return this.treasureName(x);
      if (typeof x === 'string' && this.data.missions[x]) return this.data.missions[x].name;
      if (['winners', 'opponent', 'by', 'attacker', 'defender', 'loser', 'winner'].includes(k) && typeof x === 'number' && x >= 0) return this.seatName(x);
      return typeof x === 'object' && x !== null ? JSON.stringify(x) : String(x);
    };
    const text = Array.isArray(val) ? val.map(one).join(', ') : one(val);
    return k === 'space' ? text : `${k.replace(/_/g, ' ')}: ${text}`;
  }

  drawLog(v) {
    const items = (v.log || []).slice().reverse().filter((e) => e.event !== 'turn').slice(0, 40).map((e) => {
      const rest = Object.entries(e).filter(([k]) => !['event', 'seat', 'turn', 'round'].includes(k))
        .map(([k, val]) => this.logValue(k, val));
      return el('li', {}, `T${e.turn} `, e.seat >= 0 ? el('span', {class: 'swatch', style: `background:${this.seatColour(e.seat)}`}) : '',
        ` ${e.event.replace(/_/g, ' ')}${rest.length ? ` — ${rest.join(', ')}` : ''}`);
    });
    replace(this.logBox, items.length ? items : [el('li', {class: 'muted'}, 'Nothing yet.')]);
  }
}
