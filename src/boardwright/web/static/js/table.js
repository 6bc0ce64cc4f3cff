// The game table: connects to the game's websocket, keeps the latest state frame and hands it
// to the renderer of the game (js/games/<game>.js), chosen by the frame's `game` field.
// The shell owns what every game shares: status line, refused-move messages, undo, hints
// (hints.js; each renderer draws them on its board with `showHints`), players, the list of
// every legal move, the move log and the final scores.

import {GameSocket, gameSocketProtocols, gameSocketUrl} from './socket.js';
import {el, replace, clear, chooseFrom, closeMenus} from './util.js';
import {createGeneric} from './games/generic.js';
import {HintPanel} from './hints.js';
import {ClockPanel} from './clock.js';
import {UndoPanel} from './agreement.js';
import {ChatPanel} from './chat.js';
import {EndPanel} from './ending.js';
import {installHelp} from './help.js';
import {gameInfo, seatOf} from './gameinfo.js';
import {TurnAlert} from './turnalert.js';
import {People} from './people.js';

const ERROR_TITLES = {
  illegal_action: 'Move refused',
  malformed: 'Move not understood',
  not_your_turn: 'Not your turn',
  bad_token: 'Invalid seat link',
  rate_limited: 'Too many messages',
  too_large: 'Message too large',
  game_over: 'The game is over',
  stale: 'The game moved on',
  server_error: 'Server error',
  hints_not_allowed: 'Hints not allowed',
  busy: 'Busy',
  render: 'Display problem',
  offline: 'Not sent',
};
const ERROR_HINTS = {
  stale: 'The board has been updated — look again and make your move.',
  not_your_turn: 'Wait for your turn.',
  rate_limited: 'Slow down a little and try again.',
  bad_token: 'Ask for a new join link, or watch as a spectator.',
};

// A join link carries the seat's token in its fragment (/play/<id>#token=...), which browsers
// never send to the server. A token in the query (an older link) is moved into the fragment at
// once, so that reloads and copied addresses stop sending it.
function parseLocation() {
  const params = new URLSearchParams(location.search);
  const fragment = new URLSearchParams(location.hash.replace(/^#/, ''));
  const parts = location.pathname.split('/').filter(Boolean);
  const gameId = params.get('game') || (parts[0] === 'play' ? decodeURIComponent(parts[1] || '') : '');
  const token = fragment.get('token') || params.get('token');
  // ?seat=n: which of the seats your name holds (a player's cookie opens them without a token)
  const seat = /^\d+$/.test(params.get('seat') || '') ? params.get('seat') : null;
  if (params.has('token')) {
    params.delete('token');
    const query = params.toString();
    history.replaceState(null, '', `${location.pathname}${query ? `?${query}` : ''}#token=${encodeURIComponent(token)}`);
  }
  return {gameId, token, seat};
}

class Table {
  constructor() {
    const {gameId, token, seat} = parseLocation();
    this.gameId = gameId;
    this.token = token;
    this.wantedSeat = seat;
    this.frame = null;
    this.renderer = null;
    this.rendererGame = null;
    this.rendererLoading = null;
    this.busy = false;
    this.busyTimer = null;
    this.log = [];  // [{step, seat, text}]
    this.lastLoggedStep = null;
    this.stopReconnect = false;
    this.dom = {
      board: document.getElementById('board'),
      status: document.getElementById('status'),
      error: document.getElementById('error'),
      undo: document.getElementById('undo'),
      final: document.getElementById('final'),
      panel: document.getElementById('game-panel'),
      players: document.getElementById('players'),
      actions: document.getElementById('action-list'),
      allActions: document.getElementById('all-actions'),
      log: document.getElementById('move-log'),
      title: document.getElementById('game-title'),
      seat: document.getElementById('seat-label'),
      conn: document.getElementById('connection'),
    };
    this.dom.undo.addEventListener('click', () => this.undo());
    this.turnAlert = new TurnAlert(document.getElementById('turn-alerts'));
    installHelp(document.querySelector('.topbar'), () => this.frame && this.frame.game);
    this.hints = new HintPanel({
      button: document.getElementById('hint'),
      consent: document.getElementById('hint-consent'),
      list: document.getElementById('hints'),
      send: (frame) => this.socket.send(frame),
      seatName: (seat) => this.seatName(seat),
      onHints: (hints) => this.drawHints(hints),
      onPick: (hint) => this.pickHint(hint),
    });
    this.clocks = new ClockPanel({box: document.getElementById('clocks'),
      seatName: (seat) => this.seatName(seat)});
    this.ending = new EndPanel({box: this.dom.final, resign: document.getElementById('resign'),
      claim: document.getElementById('claim'), table: this});
    this.undoRequest = new UndoPanel({box: document.getElementById('undo-request'),
      send: (frame) => this.socket.send(frame), seatName: (seat) => this.seatName(seat)});
    this.chat = new ChatPanel({box: document.getElementById('chat'),
      list: document.getElementById('chat-list'), form: document.getElementById('chat-form'),
      input: document.getElementById('chat-input'), note: document.getElementById('chat-note'),
      send: (frame) => this.socket.send(frame), seatName: (seat) => this.seatName(seat)});
    document.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') closeMenus();
      if (e.key === '?' && !(e.target && ['INPUT', 'TEXTAREA', 'SELECT'].includes(e.target.tagName))) {
        this.hints.request();
      }
    });
  }

  start() {
    if (!this.gameId) {
      replace(this.dom.board, el('p', {class: 'error'}, 'No game id in this address.'));
      return;
    }
    document.body.dataset.gameId = this.gameId;
    document.body.dataset.status = 'connecting';
    const url = gameSocketUrl(this.gameId) + (this.wantedSeat !== null ? `?seat=${this.wantedSeat}` : '');
    this.socket = new GameSocket(url, {
      protocols: gameSocketProtocols(this.token),
      onFrame: (frame) => this.onFrame(frame),
      onStatus: (status, detail) => this.onConnection(status, detail),
    }).connect();
    window.boardwright = {table: this};  // handy for debugging and for tests
  }

  onConnection(status, detail) {
    const labels = {connecting: 'connecting…', connected: 'connected', reconnecting: 'reconnecting…',
      closed: 'disconnected'};
    this.dom.conn.textContent = labels[status] + (detail && status === 'reconnecting' ? ` (${detail})` : '');
    this.dom.conn.dataset.state = status;
    document.body.dataset.connection = status;
    this.connection = status;
    if (status !== 'connected') this.setBusy(false);
    if (this.frame && this.renderer) this.renderStatus(this.frame, this.renderer);
    if (status === 'reconnecting' && this.stopReconnect) this.socket.close();
  }

  async onFrame(frame) {
    if (frame.type === 'state') {
      await this.onState(frame);
    } else if (frame.type === 'chat') {
      this.chat.onChat(frame);
    } else if (frame.type === 'hint') {
      this.hints.onHint(frame);
      document.body.dataset.hintStep = String(frame.step);
    } else if (frame.type === 'error') {
      this.showError(frame);
      this.setBusy(false);
      this.hints.onError(frame);
      if (frame.code === 'bad_token') this.stopReconnect = true;
    }
  }

  async ensureRenderer(game) {
    if (this.renderer && this.rendererGame === game) return this.renderer;
    if (this.rendererLoading && this.rendererGame === game) return this.rendererLoading;
    this.rendererGame = game;
    this.rendererLoading = (async () => {
      let renderer;
      this.info = await gameInfo(game);  // title and seats, as the server declares them
      this.people = new People(this.info, (this.frame && this.frame.seats) || []);
      const ctx = {
        board: clear(this.dom.board),
        panel: clear(this.dom.panel),
        interactive: true,
        info: this.info,
        people: this.people,  // who sits at each seat (people.js), updated with every frame
        send: (action) => this.sendMove(action),
        choose: chooseFrom,
      };
      try {
        const module = await import(`./games/${game}.js`);
        renderer = module.create(ctx);
      } catch (err) {
        console.warn(`no renderer for ${game}, using the generic one`, err);
        renderer = createGeneric(ctx);
      }
      if (renderer.init) await renderer.init();
      this.renderer = renderer;
      return renderer;
    })();
    return this.rendererLoading;
  }

  async onState(frame) {
    const renderer = await this.ensureRenderer(frame.game);
    if (this.frame && frame.step < this.frame.step) {
      // an undo took moves back: drop log entries past the new step
      this.log = this.log.filter((entry) => entry.step <= frame.step);
    }
    this.frame = frame;
    this.people.update(frame.seats);
    this.setBusy(false);
    if (frame.last_action && frame.step !== this.lastLoggedStep) {
      if (!this.log.some((entry) => entry.step === frame.step)) {
        this.log.push({step: frame.step, seat: frame.last_action.seat, text: frame.last_action.text
          || JSON.stringify(frame.last_action.action)});
      }
    }
    this.lastLoggedStep = frame.step;
    this.hideErrorIfStale(frame);
    const myTurn = this.isMyTurn(frame);
    Object.assign(document.body.dataset, {
      game: frame.game, step: String(frame.step), status: frame.status, rated: String(Boolean(frame.rated)),
      myTurn: String(myTurn), seat: frame.seat === null || frame.seat === undefined ? 'spectator' : String(frame.seat),
      phase: (frame.view && frame.view.phase) || '',
    });
    this.renderHeader(frame, renderer);
    try {
      renderer.render(frame);
    } catch (err) {
      // a view the renderer does not understand: say so, and keep the shell (moves list) usable
      console.error('the renderer failed', err);
      document.getElementById('all-actions').open = true;
      this.showError({code: 'render', message: `this position could not be drawn (${err.message}); the list of legal moves below still works.`});
    }
    this.hints.update(frame);
    if (frame.rated && frame.status !== 'finished') {  // a rating measures unaided play
      const button = document.getElementById('hint');
      button.title = `${button.title} — asking makes this rated game unrated`;
    }
    this.drawHints(this.hints.current(frame.step) || []);
    this.renderStatus(frame, renderer);
    this.renderPlayers(frame, renderer);
    this.renderActionList(frame);
    this.renderLog(frame, renderer);
    this.renderFinal(frame, renderer);
    this.dom.undo.classList.toggle('hidden', !frame.can_undo);
    const alone = (frame.seats || []).filter((s) => s.kind === 'human').length <= 1;
    // Alone against bots the move is taken back at once, which makes a rated game unrated;
    // with other people it is a request they answer, and an agreed undo keeps the rating.
    this.dom.undo.title = !alone ? 'Ask the other players to take back your last move'
      : frame.rated ? 'Take back your last move — this makes the rated game unrated'
        : 'Take back your last move (training)';
    this.clocks.update(frame);
    this.undoRequest.update(frame);
    this.chat.update(frame);
    document.body.dataset.rendered = String(frame.step);
  }

  /** The renderer draws the hints of the current position on its board (if it can). */
  drawHints(hints) {
    if (!this.renderer || !this.renderer.showHints || !this.frame) return;
    try {
      this.renderer.showHints(hints || [], this.frame);
    } catch (err) {
      console.error('the hints could not be drawn', err);
    }
  }

  pickHint(hint) {
    if (this.renderer && this.renderer.pickHint) this.renderer.pickHint(hint, this.frame);
  }

  isMyTurn(frame) {
    return frame.status !== 'finished' && frame.seat !== null && frame.seat !== undefined
      && frame.current_player === frame.seat && (frame.legal_actions || []).length > 0;
  }

  seatName(seat, renderer = this.renderer) {
    if (seat === null || seat === undefined) return 'Nobody';
    const base = renderer && renderer.seatName ? renderer.seatName(seat, this.frame) : seatOf(this.info, seat).name;
    const person = this.personName(seat);
    return person ? `${person} (${base})` : base;
  }

  /** The name of the player who holds `seat` (none: an invitation nobody named has opened). */
  personName(seat) {
    const info = this.frame && (this.frame.seats || []).find((s) => s.seat === seat);
    return info && info.name ? info.name : null;
  }

  /** A seat's colour: the game's seat table (GameInfo), whatever the renderer. */
  seatColour(seat) {
    return seatOf(this.info, seat).colour;
  }

  swatch(seat) {
    return el('span', {class: 'swatch', style: `background:${this.seatColour(seat)}`});
  }

  renderHeader(frame, renderer) {
    const title = (this.info && this.info.title) || frame.game;
    this.dom.title.textContent = `${title} · game ${this.gameId}${frame.rated ? ' · rated' : ''}`;
    const seated = frame.seat !== null && frame.seat !== undefined;
    this.turnAlert.update({seated, mine: this.isMyTurn(frame), title});
    if (frame.seat === null || frame.seat === undefined) {
      replace(this.dom.seat, 'Spectator');
    } else {
      replace(this.dom.seat, 'You: ', this.swatch(frame.seat), ` ${this.seatName(frame.seat)}`);
    }
  }

  renderStatus(frame, renderer) {
    let text;
    let cls = 'status';
    if (frame.status === 'finished') {
      text = 'Game over.';
      cls += ' over';
    } else if (this.connection && this.connection !== 'connected') {
      // no turn can be played without the server: never claim one
      text = this.connection === 'closed' ? 'Disconnected — reload the page to reconnect.' : 'Reconnecting…';
      cls += ' offline';
    } else if (this.isMyTurn(frame)) {
      const prompt = renderer.prompt ? renderer.prompt(frame) : '';
      text = `Your turn${prompt ? ` — ${prompt}` : '.'}`;
      cls += ' mine';
    } else if (frame.current_player === null || frame.current_player === undefined || frame.current_player < 0) {
      text = 'Waiting…';
    } else {
      const who = this.seatName(frame.current_player);
      const seatInfo = (frame.seats || []).find((s) => s.seat === frame.current_player);
      const kind = seatInfo && seatInfo.kind !== 'human' ? ` (${seatInfo.kind})` : '';
      text = `Waiting for ${who}${kind}…`;
    }
    this.dom.status.className = cls;
    replace(this.dom.status, text);
    if (this.busy) this.dom.status.append(el('span', {class: 'busy'}, ' sending…'));
  }

  renderPlayers(frame, renderer) {
    const scores = frame.scores || [];
    const seats = frame.seats && frame.seats.length ? frame.seats
      : scores.map((_, seat) => ({seat, kind: '?', connected: false}));
    const rows = seats.map((info) => {
      const current = info.seat === frame.current_player && frame.status !== 'finished';
      return el('div', {class: `player${current ? ' current' : ''}${info.seat === frame.seat ? ' me' : ''}`,
        testid: `player-${info.seat}`},
      this.swatch(info.seat),
      el('span', {class: 'player-name'}, this.seatName(info.seat),
        info.seat === frame.seat ? ' (you)' : '',
        info.out ? el('span', {class: 'muted', testid: `player-out-${info.seat}`}, info.out === 'resigned' ? ' — resigned' : ' — left') : ''),
      el('span', {class: 'player-kind', title: info.kind}, info.kind === 'human' ? 'human'
        : info.level ? `bot: ${info.level} (${info.kind})` : `bot: ${info.kind}`),
      el('span', {class: `dot ${info.connected || info.kind !== 'human' ? 'on' : 'off'}`,
        title: info.kind !== 'human' ? 'bot' : info.connected ? 'connected' : 'not connected'}),
      el('span', {class: 'player-score', testid: `player-score-${info.seat}`,
        title: renderer && renderer.scoreTitle ? renderer.scoreTitle() : 'score'},
        scores[info.seat] !== undefined ? this.scoreText(frame, renderer, info.seat, false) : ''),
      renderer.playerExtra ? renderer.playerExtra(info.seat, frame) || '' : '',
      // a game's own standing of the seat (pieces, cards...): one players panel, not two
      renderer && renderer.playerDetails ? el('div', {class: 'player-details'}, renderer.playerDetails(frame, info.seat)) : '');
    });
    if (renderer && renderer.playersLegend) rows.push(renderer.playersLegend(frame));
    replace(this.dom.players, rows);
  }

  renderActionList(frame) {
    const actions = frame.legal_actions || [];
    const descriptions = frame.descriptions || [];
    this.dom.allActions.classList.toggle('hidden', actions.length === 0);
    this.dom.allActions.querySelector('summary').textContent = `All legal moves (${actions.length})`;
    const limit = 400;
    const buttons = actions.slice(0, limit).map((action, i) => el('button', {
      type: 'button', class: 'action', testid: `action-${i}`,
      onclick: () => this.sendMove(action),
    }, descriptions[i] || JSON.stringify(action)));
    if (actions.length > limit) buttons.push(el('p', {class: 'muted'}, `… and ${actions.length - limit} more`));
    replace(this.dom.actions, buttons);
  }

  renderLog(frame, renderer) {
    const items = this.log.slice(-200).reverse().map((entry) => el('li', {dataset: {step: entry.step}},
      el('span', {class: 'log-step'}, `#${entry.step}`),
      entry.seat !== null && entry.seat !== undefined ? this.swatch(entry.seat) : '',
      ' ', entry.seat !== null && entry.seat !== undefined ? `${this.seatName(entry.seat)}: ` : '',
      entry.text));
    if (!items.length) items.push(el('li', {class: 'muted'}, frame.step ? 'Moves made while you are here appear here.' : 'No move yet.'));
    replace(this.dom.log, items);
  }

  renderFinal(frame, renderer) {
    this.ending.update(frame, renderer);  // the end box, Resign and the claim (ending.js)
  }

  /** A seat's score as its game shows it: the number, unless the renderer words it (Queens
   * ranks by Fields, then Cities, then Princes: its encoded number means nothing to a player). */
  scoreText(frame, renderer, seat, long) {
    if (renderer && renderer.scoreText) return renderer.scoreText(frame, seat, long);
    return String((frame.scores || [])[seat]);
  }

  /** A rated game's rating change of `seat`: "12.3 → 15.1 (+2.8)" (empty when unrated). */
  ratingCell(frame, seat) {
    const info = (frame.seats || []).find((s) => s.seat === seat);
    const rating = info && info.rating;
    if (!rating) return el('td', {testid: `final-rating-${seat}`});
    const change = rating.change;
    const sign = change > 0 ? '+' : change < 0 ? '−' : '±';
    return el('td', {class: `num rating-change ${change > 0 ? 'up' : change < 0 ? 'down' : ''}`, testid: `final-rating-${seat}`,
      title: `rating (mu − 3σ) before and after this game`, dataset: {change: String(change)}},
    `${rating.before.ordinal.toFixed(1)} → ${rating.after.ordinal.toFixed(1)} (${sign}${Math.abs(change).toFixed(1)})`);
  }

  showError(frame) {
    const title = ERROR_TITLES[frame.code] || 'Refused';
    const hint = ERROR_HINTS[frame.code] || '';
    this.dom.error.dataset.code = frame.code || '';
    replace(this.dom.error,
      el('strong', {}, `${title}: `),
      el('span', {class: 'error-text'}, frame.message || ''),
      hint ? el('div', {class: 'error-hint'}, hint) : '',
      el('button', {type: 'button', class: 'close', testid: 'error-close', title: 'Dismiss',
        onclick: () => this.hideError()}, '×'));
    this.dom.error.classList.remove('hidden');
    this.errorStep = this.frame ? this.frame.step : null;
    document.body.dataset.lastError = frame.code || 'error';
  }

  hideError() {
    this.dom.error.classList.add('hidden');
  }

  hideErrorIfStale(frame) {
    // A refusal stays visible until the position changes twice (so a stale-move message
    // that arrives just before the new state is still seen).
    if (this.errorStep !== null && this.errorStep !== undefined && frame.step > this.errorStep + 1) {
      this.hideError();
      this.errorStep = null;
    }
  }

  setBusy(busy) {
    this.busy = busy;
    document.body.classList.toggle('busy', busy);
    clearTimeout(this.busyTimer);
    if (busy) this.busyTimer = setTimeout(() => this.setBusy(false), 8000);
  }

  sendMove(action) {
    closeMenus();
    if (!this.frame) return false;
    if (this.busy) return false;
    const ok = this.socket.send({type: 'move', action, step: this.frame.step});
    if (!ok) {
      this.showError({code: 'offline', message: 'not connected to the server — the move was not sent; try again when reconnected.'});
      return false;
    }
    this.setBusy(true);
    return true;
  }

  undo() {
    if (!this.socket.send({type: 'undo'})) {
      this.showError({code: 'offline', message: 'not connected to the server.'});
      return;
    }
    const alone = (this.frame.seats || []).filter((s) => s.kind === 'human').length <= 1;
    if (alone) this.setBusy(true);  // with others, the answer is a request, not a new position
  }
}

const table = new Table();
table.start();
