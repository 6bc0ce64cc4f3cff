// The analysis panel of the replay page: the Analyse button and its progress, the chart of the
// expected margin over the game (click: go to that step), the move list annotated with the
// points each move lost, and at each step the move played against the bot's best.

import * as api from './api.js';
import {el, svg, replace, clear} from './util.js';

const FLAG_COLOURS = {inaccuracy: '#d9a400', mistake: '#ef7d12', blunder: '#d33b2f'};
const FLAG_WORDS = {inaccuracy: 'inaccuracy', mistake: 'mistake', blunder: 'blunder'};
const POLL_MS = 500;
const W = 340;  // chart view box
const H = 150;
const PAD = {left: 30, right: 6, top: 8, bottom: 18};

const signed = (x) => (x > 0 ? '+' : x < 0 ? '−' : '') + Math.abs(x).toFixed(1);

export class AnalysisPanel {
  /** gameId; root: the panel's element; replay: {steps, descriptions, seats}; go(step);
   *  seatName(seat), seatColour(seat). */
  constructor({gameId, root, replay, go, seatName, seatColour}) {
    Object.assign(this, {gameId, root, replay, go, seatName, seatColour});
    this.analysis = null;
    this.step = 0;
    this.button = el('button', {type: 'button', class: 'primary', testid: 'analyse-button',
      onclick: () => this.start()}, 'Analyse');
    this.status = el('div', {class: 'analysis-status muted', testid: 'analysis-status'});
    this.bar = el('progress', {class: 'hidden', testid: 'analysis-progress', max: '1', value: '0'});
    this.summary = el('div', {class: 'analysis-summary', testid: 'analysis-summary'});
    this.chart = el('div', {class: 'analysis-chart', testid: 'analysis-chart-box'});
    this.here = el('div', {class: 'analysis-step', testid: 'analysis-step'});
    this.moves = el('ol', {class: 'move-list', testid: 'move-list', start: '1'});
    replace(root, el('h3', {}, 'Analysis'), el('div', {class: 'analysis-head'}, this.button, this.bar),
      this.status, this.chart, this.summary, this.here, el('h3', {}, 'Moves'), this.moves);
    this.renderMoves();
  }

  async load() {
    let body;
    try {
      body = await api.getAnalysis(this.gameId);
    } catch (err) {
      this.showError(err);
      return;
    }
    this.show(body);
  }

  async start() {
    this.button.disabled = true;
    try {
      this.show(await api.startAnalysis(this.gameId));
    } catch (err) {
      this.showError(err);
    }
  }

  showError(err) {
    this.button.disabled = err.status === 409 || err.status === 404;
    this.bar.classList.add('hidden');
    replace(this.status, el('span', {class: 'error-text'}, err.message));
    document.body.dataset.analysis = 'error';
  }

  show(body) {
    document.body.dataset.analysis = body.status;
    if (body.status === 'done') {
      this.analysis = body.analysis;
      this.button.classList.add('hidden');
      this.bar.classList.add('hidden');
      const s = this.analysis.settings;
      replace(this.status, `The bot's judgement: ${s.iterations} playouts per decision, `
        + `${s.candidates} moves compared (${this.analysis.seconds.toFixed(0)} s).`);
      this.render();
      return;
    }
    if (body.status === 'queued' || body.status === 'running') {
      this.button.disabled = true;
      this.bar.classList.remove('hidden');
      this.bar.max = String(Math.max(1, body.total));
      this.bar.value = String(body.done);
      replace(this.status, body.status === 'queued' ? 'Waiting for another analysis to finish…'
        : `Analysing: ${body.done} of ${body.total} decisions…`);
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.load(), POLL_MS);
      return;
    }
    this.button.disabled = false;
    this.bar.classList.add('hidden');
    replace(this.status, body.status === 'failed'
      ? el('span', {class: 'error-text'}, `The analysis failed: ${body.error}`)
      : `Each move against the bot's best, the ${this.unit()} it lost, and the expected margin over the game.`);
  }

  render() {
    this.renderChart();
    this.renderSummary();
    this.renderMoves();
    this.setStep(this.step);
  }

  // -- the chart ---------------------------------------------------------------------------

  /** The series drawn: seat 0's expected lead for two players (the other seat's is its mirror),
   *  else every seat's lead over the best other seat. */
  series() {
    const rows = this.analysis.margins;
    const n = this.analysis.players;
    const seats = n === 2 ? [0] : [...Array(n).keys()];
    return seats.map((seat) => ({seat, values: rows.map((r) => r[seat])}));
  }

  renderChart() {
    const rows = this.analysis.margins;
    const steps = rows.length - 1;
    const all = rows.flat().filter((v) => v !== null && Number.isFinite(v));
    let low = Math.min(0, ...all);
    let high = Math.max(0, ...all);
    if (high - low < 2) { high += 1; low -= 1; }
    const x = (i) => PAD.left + (i * (W - PAD.left - PAD.right)) / Math.max(1, steps);
    const y = (v) => PAD.top + ((high - v) * (H - PAD.top - PAD.bottom)) / (high - low);
    this.x = x;
    const chart = svg('svg', {viewBox: `0 0 ${W} ${H}`, class: 'margin-chart', testid: 'analysis-chart',
      role: 'img', 'aria-label': 'Expected margin over the game'});
    const two = this.analysis.players === 2;
    if (two) {  // shade who is ahead: seat 0's colour above the zero line, seat 1's below
      chart.append(svg('rect', {x: PAD.left, y: PAD.top, width: W - PAD.left - PAD.right, height: y(0) - PAD.top,
        fill: this.seatColour(0), opacity: '0.07'}));
      chart.append(svg('rect', {x: PAD.left, y: y(0), width: W - PAD.left - PAD.right, height: H - PAD.bottom - y(0),
        fill: this.seatColour(1), opacity: '0.07'}));
    }
    chart.append(svg('line', {x1: PAD.left, x2: W - PAD.right, y1: y(0), y2: y(0), class: 'zero'}));
    for (const [v, anchor] of [[high, 'top'], [0, 'zero'], [low, 'bottom']]) {
      chart.append(svg('text', {x: PAD.left - 4, y: y(v) + 3, class: `axis-label ${anchor}`, 'text-anchor': 'end'},
        v === 0 ? '0' : signed(v).replace('.0', '')));
    }
    chart.append(svg('text', {x: W - PAD.right, y: H - 4, class: 'axis-label', 'text-anchor': 'end'}, `step ${steps}`));
    chart.append(svg('text', {x: PAD.left, y: H - 4, class: 'axis-label'}, 'step 0'));
    for (const {seat, values} of this.series()) {
      const points = values.map((v, i) => (v === null ? null : `${x(i).toFixed(1)},${y(v).toFixed(1)}`)).filter(Boolean);
      chart.append(svg('polyline', {points: points.join(' '), fill: 'none', stroke: this.seatColour(seat),
        'stroke-width': '1.6', 'stroke-linejoin': 'round', testid: `chart-line-${seat}`}));
    }
    this.cursor = svg('line', {y1: PAD.top, y2: H - PAD.bottom, class: 'cursor', testid: 'chart-cursor'});
    chart.append(this.cursor);
    const seatLine = two ? 0 : null;
    for (const d of this.analysis.decisions) {
      if (!d.flag) continue;
      const step = d.step + 1;
      const seat = seatLine ?? d.seat;
      const value = rows[step][seat];
      chart.append(svg('circle', {cx: x(step), cy: y(value), r: d.flag === 'blunder' ? 4 : 3,
        fill: FLAG_COLOURS[d.flag], stroke: '#fff', 'stroke-width': '1', class: 'flag-point',
        testid: `chart-point-${step}`, dataset: {step: String(step)},
        onclick: (e) => { e.stopPropagation(); this.go(step); }},
      svg('title', {}, `Step ${step}: ${this.seatName(d.seat)} lost ${d.lost.toFixed(1)} (${d.flag})`)));
    }
    chart.addEventListener('click', (e) => {  // anywhere on the chart: the nearest step
      const box = chart.getBoundingClientRect();
      const px = ((e.clientX - box.left) / box.width) * W;
      const step = Math.round(((px - PAD.left) / (W - PAD.left - PAD.right)) * steps);
      this.go(Math.max(0, Math.min(steps, step)));
    });
    const legend = two
      ? el('div', {class: 'chart-legend'}, el('span', {class: 'swatch', style: `background:${this.seatColour(0)}`}),
        ` ${this.seatName(0)} ahead above 0 · `, el('span', {class: 'swatch', style: `background:${this.seatColour(1)}`}),
        ` ${this.seatName(1)} ahead below`)
      : el('div', {class: 'chart-legend'}, [...Array(this.analysis.players).keys()].map((s) => [
        el('span', {class: 'swatch', style: `background:${this.seatColour(s)}`}), ` ${this.seatName(s)} `]));
    replace(this.chart, el('div', {class: 'chart-title'}, two
      ? `Expected final margin of ${this.seatName(0)} (${this.unit()})`
      : `Each seat's expected lead over the best other seat (${this.unit()})`), chart, legend);
  }

  /** What the figures count, in the game's own unit (Game.analysis_unit): "points" unless the
   *  game says otherwise (Queens: Fields). */
  unit() {
    return (this.analysis && this.analysis.unit) || 'points';
  }

  // -- summary, move list, the step ----------------------------------------------------------

  renderSummary() {
    const thresholds = Object.entries(this.analysis.thresholds || {}).reverse()
      .map(([flag, points]) => `${flag} ≥ ${points}`).join(', ');
    const head = el('tr', {}, el('th', {}, 'Seat'), el('th', {class: 'num'}, 'Avg lost'),
      ...['inaccuracy', 'mistake', 'blunder'].map((f) => el('th', {class: 'num', title: f},
        el('span', {class: 'flag-dot', style: `background:${FLAG_COLOURS[f]}`}))));
    const rows = this.analysis.seats.map((s) => el('tr', {testid: `analysis-seat-${s.seat}`},
      el('td', {}, el('span', {class: 'swatch', style: `background:${this.seatColour(s.seat)}`}), ' ', this.seatName(s.seat)),
      el('td', {class: 'num'}, s.average_lost.toFixed(2)),
      ...['inaccuracy', 'mistake', 'blunder'].map((f) => el('td', {class: 'num'}, String(s.flags[f] || 0)))));
    replace(this.summary, el('table', {class: 'analysis-table'}, el('thead', {}, head), el('tbody', {}, rows)),
      el('div', {class: 'muted small', testid: 'analysis-thresholds'}, `${this.unit()[0].toUpperCase()}${this.unit().slice(1)} of expected margin lost per decision `
        + `against the bot's best move. Flags: ${thresholds}. Forced moves are not counted, and nothing is flagged `
        + 'where every move loses the game.'));
  }

  renderMoves() {
    const texts = this.replay.descriptions || [];
    const decisions = this.analysis ? this.analysis.decisions : [];
    this.items = texts.map((text, i) => {
      const d = decisions[i];
      const step = i + 1;
      const item = el('li', {testid: `move-${step}`, class: d && d.flag ? `flag-${d.flag}` : '',
        value: String(step), onclick: () => this.go(step)},
      el('span', {class: 'swatch', style: `background:${this.seatColour((this.replay.seats || [])[i] ?? 0)}`}), ' ',
      el('span', {class: 'move-text'}, text));
      if (d && d.forced) item.append(el('span', {class: 'move-note muted'}, ' forced'));
      else if (d && d.margin !== null) {
        item.append(el('span', {class: 'move-note', testid: `move-note-${step}`,
          title: d.best_action && d.lost > 0 ? `best: ${d.best}` : 'the bot\'s best move'},
        d.lost > 0.05 ? ` −${d.lost.toFixed(1)}` : ' ✓', d.flag ? ` ${FLAG_WORDS[d.flag]}` : ''));
      }
      return item;
    });
    replace(this.moves, this.items);
  }

  /** The replay moved to `step` (the position after `step` moves). */
  setStep(step) {
    this.step = step;
    (this.items || []).forEach((item, i) => item.classList.toggle('current', i + 1 === step));
    const current = this.items && this.items[step - 1];
    if (current && current.scrollIntoView && this.moves.offsetParent) {
      current.scrollIntoView({block: 'nearest'});
    }
    if (!this.analysis) return;
    if (this.cursor && this.x) {
      this.cursor.setAttribute('x1', this.x(step));
      this.cursor.setAttribute('x2', this.x(step));
    }
    const decisions = this.analysis.decisions;
    const parts = [];
    const last = decisions[step - 1];
    if (last) {
      parts.push(el('div', {testid: 'analysis-last'}, el('b', {}, `Move ${step}`), ` · ${this.seatName(last.seat)}: `,
        last.forced ? 'forced (the only legal move)' : [
          `played ${(this.replay.descriptions || [])[step - 1] || last.played} (${signed(last.margin)})`,
          last.lost > 0 ? [' · best ', el('b', {}, last.best), ` (${signed(last.best_margin)})`,
            ' · lost ', el('b', {style: last.flag ? `color:${FLAG_COLOURS[last.flag]}` : ''},
              last.lost.toFixed(1)), last.flag ? ` (${last.flag})` : ''] : ' · the bot\'s best move']));
    }
    const next = decisions[step];
    if (next && !next.forced) {
      parts.push(el('div', {testid: 'analysis-best'}, `Best here for ${this.seatName(next.seat)}: `,
        el('b', {}, next.best), ` (expected margin ${signed(next.best_margin)})`));
    }
    replace(this.here, parts.length ? parts : el('div', {class: 'muted'}, 'Start of the game.'));
  }
}
