// The replay viewer of a finished game: step, jump and play/pause over the replay endpoint,
// drawn by the same renderer as the table (in spectator mode, nothing clickable).

import * as api from './api.js';
import {el, replace, clear} from './util.js';
import {createGeneric} from './games/generic.js';
import {AnalysisPanel} from './analysis.js';
import {gameInfo, seatOf} from './gameinfo.js';
import {People} from './people.js';
import {resultHeadline} from './ending.js';

class Replay {
  constructor() {
    const parts = location.pathname.split('/').filter(Boolean);
    const params = new URLSearchParams(location.search);
    this.gameId = params.get('game') || (parts[0] === 'replay' ? decodeURIComponent(parts[1] || '') : '');
    this.step = 0;
    this.timer = null;
    this.cache = new Map();  // step -> {view, action}
    this.dom = {};
    for (const id of ['board', 'first', 'prev', 'play', 'next', 'last', 'slider', 'jump', 'go', 'speed',
      'step', 'action', 'error', 'players', 'game-panel', 'game-title', 'analysis']) {
      this.dom[id] = document.getElementById(id);
    }
  }

  async start() {
    if (!this.gameId) {
      this.fail('No game id in this address.');
      return;
    }
    try {
      this.data = await api.getReplay(this.gameId);
    } catch (err) {
      if (err.status === 403) {
        this.fail('This game is not finished yet: a replay opens once it is over.',
          el('a', {href: `/play/${encodeURIComponent(this.gameId)}`}, 'Watch it live'));
      } else {
        this.fail(`The replay could not be loaded: ${err.message}`);
      }
      return;
    }
    this.steps = this.data.steps;
    (this.data.frames || []).forEach((view, i) => this.cache.set(i, {view, action: i > 0 ? (this.data.actions || [])[i - 1] : null}));
    // the final position ends with its figures and final scoring: its table data
    if (this.cache.has(this.steps)) this.cache.get(this.steps).table = this.data.final_table || {};
    this.info = await gameInfo(this.data.game);  // title and seats, as the server declares them
    // who held each seat: the player's name, else the bot's label (people.js)
    const kinds = this.data.kinds || [];
    this.people = new People(this.info, kinds.map((kind, seat) => ({seat, kind,
      name: (this.data.names || [])[seat] || null, level: (this.data.levels || [])[seat] || null})));
    const ctx = {board: clear(this.dom.board), panel: clear(this.dom['game-panel']), interactive: false,
      info: this.info, people: this.people, send: () => false, choose: async () => null};
    try {
      const module = await import(`./games/${this.data.game}.js`);
      this.renderer = module.create(ctx);
    } catch (err) {
      console.warn('generic renderer', err);
      this.renderer = createGeneric(ctx);
    }
    if (this.renderer.init) await this.renderer.init();
    const title = this.info.title;
    this.dom['game-title'].textContent = `Replay · ${title} · game ${this.gameId}`;
    this.dom.slider.max = String(this.steps);
    this.dom.jump.max = String(this.steps);
    this.dom.first.addEventListener('click', () => this.go(0));
    this.dom.prev.addEventListener('click', () => this.go(this.step - 1));
    this.dom.next.addEventListener('click', () => this.go(this.step + 1));
    this.dom.last.addEventListener('click', () => this.go(this.steps));
    this.dom.play.addEventListener('click', () => this.toggle());
    this.dom.slider.addEventListener('input', () => this.go(Number(this.dom.slider.value), {keepPlaying: true}));
    this.dom.go.addEventListener('click', () => this.go(Number(this.dom.jump.value)));
    this.dom.jump.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') this.go(Number(this.dom.jump.value));
    });
    this.dom.speed.addEventListener('change', () => {
      if (this.timer) {
        this.pause();
        this.play();
      }
    });
    document.addEventListener('keydown', (e) => {
      if (e.target && ['INPUT', 'TEXTAREA', 'SELECT'].includes(e.target.tagName)) return;
      if (e.key === 'ArrowLeft') this.go(this.step - 1);
      else if (e.key === 'ArrowRight') this.go(this.step + 1);
      else if (e.key === 'Home') this.go(0);
      else if (e.key === 'End') this.go(this.steps);
      else if (e.key === ' ') {
        e.preventDefault();
        this.toggle();
      }
    });
    this.analysis = new AnalysisPanel({
      gameId: this.gameId, root: this.dom.analysis, replay: this.data, go: (step) => this.go(step),
      seatName: (seat) => this.people.name(seat),
      seatColour: (seat) => this.people.colour(seat),
    });
    this.analysis.load();
    const wanted = Number(new URLSearchParams(location.search).get('step'));
    await this.go(Number.isFinite(wanted) && wanted > 0 ? wanted : 0);
    document.body.dataset.ready = 'true';
  }

  fail(message, ...extra) {
    replace(this.dom.board, el('p', {class: 'error', testid: 'replay-error'}, message, ' ', ...extra));
    document.body.dataset.ready = 'error';
  }

  async load(step) {
    if (!this.cache.has(step)) {
      const data = await api.getReplayStep(this.gameId, step);
      this.cache.set(step, {view: data.view, action: data.action, table: data.table});
    }
    return this.cache.get(step);
  }

  async go(step, {keepPlaying = false} = {}) {
    if (!Number.isFinite(step)) return;
    step = Math.max(0, Math.min(this.steps, Math.round(step)));
    if (!keepPlaying && this.timer) this.pause();
    let entry;
    try {
      entry = await this.load(step);
    } catch (err) {
      replace(this.dom.error, `Step ${step} could not be loaded: ${err.message}`);
      this.dom.error.classList.remove('hidden');
      this.pause();
      return;
    }
    this.step = step;
    const view = entry.view;
    const descriptions = this.data.descriptions || [];
    const actions = this.data.actions || [];
    const scores = (this.renderer.viewScores ? this.renderer.viewScores(view) : view.scores) || [];
    const frame = {
      type: 'state', game: this.data.game, seat: null, step, status: step === this.steps ? 'finished' : 'running',
      current_player: view.current_player ?? null, view, legal_actions: [], descriptions: [], scores,
      seats: [], last_action: step > 0 ? {seat: null, action: actions[step - 1], text: descriptions[step - 1]} : null,
      can_undo: false, table: entry.table, result: step === this.steps ? this.data.result : null,
    };
    this.renderer.render(frame);
    this.dom.slider.value = String(step);
    this.dom.jump.value = String(step);
    replace(this.dom.step, el('b', {}, `Step ${step} / ${this.steps}`), step === this.steps ? ' · final position' : '',
      step === this.steps && this.data.result ? el('div', {class: 'end-reason', testid: 'replay-result', dataset: {reason: this.data.result.reason}},
        resultHeadline(this.data.result, (seat) => this.seatLabel(seat, frame))) : '');
    const mover = (i) => {  // the seat that made move i, as its player's tag
      const seat = (this.data.seats || [])[i];
      return seat === null || seat === undefined || seat < 0 ? '' : [this.people.tag(seat), ' '];
    };
    replace(this.dom.action,
      step > 0 ? el('div', {testid: 'replay-last-action'}, 'Last move: ', mover(step - 1),
        el('b', {}, descriptions[step - 1] || JSON.stringify(actions[step - 1]))) : el('div', {class: 'muted'}, 'Start of the game.'),
      step < this.steps ? el('div', {class: 'muted', testid: 'replay-next-action'}, 'Next: ', mover(step),
        descriptions[step] || JSON.stringify(actions[step])) : '');
    this.renderScores(frame);
    if (this.analysis) this.analysis.setStep(step);
    Object.assign(document.body.dataset, {step: String(step), steps: String(this.steps)});
    this.dom.prev.disabled = this.dom.first.disabled = step === 0;
    this.dom.next.disabled = this.dom.last.disabled = step === this.steps;
    if (step === this.steps && this.timer) this.pause();
  }

  renderScores(frame) {
    const r = this.renderer;
    const rows = (frame.scores || []).map((score, seat) => el('div', {class: 'player', testid: `player-${seat}`},
      this.people.swatch(seat),
      el('span', {class: 'player-name', testid: `player-name-${seat}`, title: seatOf(this.info, seat).name},
        this.people.name(seat)),
      el('span', {class: 'player-score', testid: `player-score-${seat}`},
        r.scoreText ? r.scoreText(frame, seat, false) : String(score)),  // as the table shows it
      r.playerDetails ? el('div', {class: 'player-details'}, r.playerDetails(frame, seat)) : ''));
    if (r.playersLegend) rows.push(r.playersLegend(frame));
    replace(this.dom.players, rows);
  }

  /** "Ann (Red)" when a named player held the seat, else the seat's name. */
  seatLabel(seat, frame) {
    const r = this.renderer;
    const base = r.seatName ? r.seatName(seat, frame) : seatOf(this.info, seat).name;
    const name = ((this.data && this.data.names) || [])[seat];
    return name ? `${name} (${base})` : base;
  }

  toggle() {
    if (this.timer) this.pause();
    else this.play();
  }

  play() {
    if (this.step >= this.steps) this.go(0);
    const delay = Number(this.dom.speed.value) || 700;
    this.timer = setInterval(() => {
      if (this.step >= this.steps) {
        this.pause();
        return;
      }
      this.go(this.step + 1, {keepPlaying: true});
    }, delay);
    this.dom.play.textContent = '⏸ Pause';
    document.body.dataset.playing = 'true';
  }

  pause() {
    clearInterval(this.timer);
    this.timer = null;
    this.dom.play.textContent = '▶ Play';
    document.body.dataset.playing = 'false';
  }
}

new Replay().start();
