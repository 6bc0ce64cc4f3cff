// The lobby: create a game (game, players, a human or bot string per seat, options JSON,
// seed), show its join links and spectator link, and list the games by status.

import * as api from './api.js';
import {el, replace} from './util.js';

const STATUSES = ['open', 'running', 'finished'];
const form = document.getElementById('create-form');
const gameSelect = document.getElementById('new-game');
const playersSelect = document.getElementById('new-players');
const seatsBox = document.getElementById('seats');
const optionsBox = document.getElementById('new-options');
const optionsHelp = document.getElementById('options-help');
const seedInput = document.getElementById('new-seed');
const errorBox = document.getElementById('create-error');
const created = document.getElementById('created');
let games = [];

function currentGame() {
  return games.find((g) => g.name === gameSelect.value);
}

function seatInputs() {
  return [...seatsBox.querySelectorAll('input.seat-kind')];
}

function renderPlayers() {
  const game = currentGame();
  if (!game) return;
  const previous = Number(playersSelect.value);
  replace(playersSelect, game.players.map((n) => el('option', {value: n}, String(n))));
  const preferred = game.players.includes(previous) ? previous : game.players.includes(2) ? 2 : game.players[0];
  playersSelect.value = String(preferred);
  renderSeats();
  renderOptionsHelp();
}

// A seat is "human", a named level (easy, medium, hard: each stands for an agent string, shown
// next to the seat) or any agent string typed in full.
function levelOf(value) {
  const game = currentGame();
  const name = value.trim().toLowerCase();
  return ((game && game.levels) || []).find((level) => level.name === name) || null;
}

function describeSeat(input, note) {
  const level = levelOf(input.value);
  const text = level ? `bot ${level.agent}` : '';
  note.textContent = text;
  input.title = level ? `${level.name}: ${level.agent} — ${level.description}` : '';
}

function renderSeats() {
  const game = currentGame();
  const n = Number(playersSelect.value);
  const old = seatInputs().map((input) => input.value);
  const listId = 'agent-list';
  let datalist = document.getElementById(listId);
  if (!datalist) {
    datalist = el('datalist', {id: listId, testid: 'agent-list'});
    document.body.append(datalist);
  }
  const levels = (game && game.levels) || [];
  replace(datalist,
    el('option', {value: 'human', label: 'a person (join link)'}),
    levels.map((level) => el('option', {value: level.name, label: `${level.agent} — ${level.description}`,
      dataset: {agent: level.agent}})),
    ((game && game.agents) || []).map((a) => el('option', {value: a, label: 'agent string'})));
  const legend = seatsBox.querySelector('legend');
  replace(seatsBox, legend);
  const fallback = levels.length ? levels[Math.min(1, levels.length - 1)].name : 'random';
  for (let i = 0; i < n; i++) {
    const value = old[i] || (i === 0 ? 'human' : fallback);
    const input = el('input', {class: 'seat-kind', list: listId, value, testid: `seat-${i}`, name: `seat-${i}`,
      required: true});
    const note = el('span', {class: 'seat-agent muted', testid: `seat-agent-${i}`});
    input.addEventListener('input', () => describeSeat(input, note));
    describeSeat(input, note);
    seatsBox.append(el('label', {class: 'seat'}, `Seat ${i + 1} `, input, ' ', note));
  }
}

function renderOptionsHelp() {
  const game = currentGame();
  const help = (game && game.options_help) || {};
  const entries = Object.entries(help);
  replace(optionsHelp, entries.length
    ? el('dl', {}, entries.map(([key, text]) => [el('dt', {}, key), el('dd', {}, typeof text === 'string' ? text : JSON.stringify(text))]))
    : el('p', {class: 'muted'}, 'No options described.'));
}

function showError(message) {
  replace(errorBox, message);
  errorBox.classList.toggle('hidden', !message);
}

async function onCreate(event) {
  event.preventDefault();
  showError('');
  let options;
  try {
    options = optionsBox.value.trim() ? JSON.parse(optionsBox.value) : {};
  } catch (err) {
    showError(`Options are not valid JSON: ${err.message}`);
    return;
  }
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    showError('Options must be a JSON object, such as {"farmers": false}.');
    return;
  }
  const body = {
    game: gameSelect.value,
    players: Number(playersSelect.value),
    options,
    seats: seatInputs().map((input) => input.value.trim() || 'human'),
  };
  if (seedInput.value.trim() !== '') body.seed = Number(seedInput.value);
  let result;
  try {
    result = await api.createGame(body);
  } catch (err) {
    showError(`The game was not created: ${err.message}`);
    return;
  }
  showCreated(result);
  refresh();
}

function absolute(url) {
  return new URL(url, location.href).href;
}

function showCreated(result) {
  const rows = result.seats.map((seat) => el('li', {},
    `Seat ${seat.seat + 1} (${seat.level ? `${seat.level}: ${seat.kind}` : seat.kind}): `,
    seat.join_url
      ? [el('a', {href: seat.join_url, testid: `join-link-${seat.seat}`, target: '_blank'}, absolute(seat.join_url)),
        ' ', el('button', {type: 'button', class: 'small', onclick: () => navigator.clipboard && navigator.clipboard.writeText(absolute(seat.join_url))}, 'copy')]
      : el('span', {class: 'muted'}, 'bot')));
  replace(created,
    el('h3', {}, `Game ${result.id} created`),
    el('p', {class: 'muted'}, 'Each human seat joins with its own secret link; keep them private.'),
    el('ul', {class: 'links'}, rows),
    el('p', {}, 'Spectators: ', el('a', {href: result.spectate_url, testid: 'spectate-link', target: '_blank'},
      absolute(result.spectate_url))));
  created.dataset.gameId = result.id;
  created.classList.remove('hidden');
}

function formatTime(value) {
  if (value === undefined || value === null) return '';
  const date = typeof value === 'number' ? new Date(value * (value < 1e12 ? 1000 : 1)) : new Date(value);
  return Number.isNaN(date.getTime()) ? String(value) : date.toLocaleString();
}

function gameRow(game) {
  const seats = (game.seats || []).map((s) => el('span', {class: `seat-chip ${s.kind === 'human' ? (s.connected ? 'on' : 'off') : 'bot'}`,
    title: s.kind === 'human' ? (s.connected ? 'connected' : 'not connected') : `bot: ${s.kind}`}, s.name || s.level || s.kind));
  const link = game.status === 'finished'
    ? el('a', {href: `/replay/${encodeURIComponent(game.id)}`, testid: `replay-${game.id}`}, 'replay')
    : el('a', {href: `/play/${encodeURIComponent(game.id)}`, testid: `watch-${game.id}`}, 'watch');
  return el('tr', {testid: `game-row-${game.id}`, dataset: {gameId: game.id, status: game.status}},
    el('td', {}, game.game),
    el('td', {class: 'mono'}, game.id),
    el('td', {}, seats),
    el('td', {class: 'num'}, String(game.step ?? '')),
    el('td', {}, (game.scores || []).join(' · ')),
    el('td', {class: 'muted'}, formatTime(game.created)),
    el('td', {}, link));
}

async function refresh() {
  await Promise.all(STATUSES.map(async (status) => {
    const box = document.getElementById(`games-${status}`);
    let list;
    try {
      list = await api.listGames(status);
    } catch (err) {
      replace(box, el('p', {class: 'error'}, err.message));
      return;
    }
    if (!list.length) {
      replace(box, el('p', {class: 'muted'}, 'None.'));
      return;
    }
    replace(box, el('table', {class: 'games-table'},
      el('thead', {}, el('tr', {}, ['Game', 'Id', 'Seats', 'Step', 'Scores', 'Created', ''].map((h) => el('th', {}, h)))),
      el('tbody', {}, list.map(gameRow))));
  }));
}

async function start() {
  try {
    const data = await api.catalog();
    games = data.games || [];
  } catch (err) {
    showError(`The catalogue could not be loaded: ${err.message}`);
    return;
  }
  replace(gameSelect, games.map((g) => el('option', {value: g.name}, g.name)));
  const wanted = new URLSearchParams(location.search).get('game');
  if (wanted && games.some((g) => g.name === wanted)) gameSelect.value = wanted;
  gameSelect.addEventListener('change', renderPlayers);
  playersSelect.addEventListener('change', renderSeats);
  form.addEventListener('submit', onCreate);
  document.getElementById('refresh').addEventListener('click', refresh);
  renderPlayers();
  document.body.dataset.ready = 'true';
  refresh();
  setInterval(refresh, 5000);
}

start();
