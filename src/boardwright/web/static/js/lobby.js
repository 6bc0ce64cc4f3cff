// The lobby: create a game (game, players, per seat "me", an open seat or a bot, the game's
// options as a form built from its specs: optionform.js, seed), show its join links and
// spectator link, and list the games by status, with a "Take seat" button on open seats.

import * as api from './api.js';
import {optionForm} from './optionform.js';
import {tableForm} from './tableform.js';
import {el, replace} from './util.js';

const STATUSES = ['open', 'running', 'finished'];
const form = document.getElementById('create-form');
const gameSelect = document.getElementById('new-game');
const playersSelect = document.getElementById('new-players');
const seatsBox = document.getElementById('seats');
const optionsBox = document.getElementById('options-form');
const seedInput = document.getElementById('new-seed');
const errorBox = document.getElementById('create-error');
const created = document.getElementById('created');
let games = [];
let options = null; // the options form of the chosen game and player count
let table = null; // the table settings: clock, time-out, rated (tableform.js)

function currentGame() {
  return games.find((g) => g.name === gameSelect.value);
}

function seatInputs() {
  return [...seatsBox.querySelectorAll('select.seat-kind')];
}

function renderPlayers() {
  const game = currentGame();
  if (!game) return;
  const previous = Number(playersSelect.value);
  replace(playersSelect, game.players.map((n) => el('option', {value: n}, String(n))));
  const preferred = game.players.includes(previous) ? previous : game.players.includes(2) ? 2 : game.players[0];
  playersSelect.value = String(preferred);
  renderSeats();
}

// A seat is "me" (the creator: "human", with a join link), an open seat (a human seat anyone
// may take later from the lobby), a named level (easy, medium, hard: each stands for an agent
// string, shown next to the seat), a trained policy the server offers for this game and seat
// count ("policy NAME": its agent string is the value) or one of the agent strings it offers.
function levelOf(value) {
  const game = currentGame();
  return ((game && game.levels) || []).find((level) => level.name === value) || null;
}

function policyOf(value) {
  const game = currentGame();
  return ((game && game.policies) || []).find((policy) => policy.agent === value) || null;
}

function describeSeat(select, note) {
  const level = levelOf(select.value);
  const policy = policyOf(select.value);
  note.textContent = level ? `bot ${level.agent}` : policy ? `trained policy: ${policy.description}`
    : select.value === 'open' ? 'anyone may take it in the lobby' : '';
  select.title = level ? `${level.name}: ${level.agent} — ${level.description}` : policy ? policy.agent : '';
}

function seatChoices(game, players) {
  const levels = (game && game.levels) || [];
  const policies = ((game && game.policies) || []).filter((policy) => policy.players === players);
  return [
    el('option', {value: 'human'}, 'me'),
    el('option', {value: 'open'}, 'open seat'),
    el('optgroup', {label: 'bot level'}, levels.map((level) => el('option', {value: level.name,
      title: `${level.agent} — ${level.description}`, dataset: {agent: level.agent}}, `${level.name} bot`))),
    ...(policies.length ? [el('optgroup', {label: 'trained policy'}, policies.map((policy) => el('option',
      {value: policy.agent, title: policy.description}, `policy ${policy.name}`)))] : []),
    el('optgroup', {label: 'bot (agent string)'}, ((game && game.agents) || []).map((a) => el('option', {value: a}, a))),
  ];
}

function renderSeats() {
  const game = currentGame();
  const n = Number(playersSelect.value);
  const old = seatInputs().map((select) => select.value);
  const legend = seatsBox.querySelector('legend');
  replace(seatsBox, legend);
  const levels = (game && game.levels) || [];
  const fallback = levels.length ? levels[Math.min(1, levels.length - 1)].name : 'random';
  for (let i = 0; i < n; i++) {
    const select = el('select', {class: 'seat-kind', testid: `seat-${i}`, name: `seat-${i}`}, seatChoices(game, n));
    const wanted = old[i] || (i === 0 ? 'human' : fallback);
    select.value = [...select.options].some((o) => o.value === wanted) ? wanted : fallback;
    const note = el('span', {class: 'seat-agent muted', testid: `seat-agent-${i}`});
    select.addEventListener('change', () => describeSeat(select, note));
    describeSeat(select, note);
    seatsBox.append(el('label', {class: 'seat'}, `Seat ${i + 1} `, select, ' ', note));
  }
  renderOptions();
}

function renderOptions() {
  const game = currentGame();
  const specs = (game && game.option_specs && game.option_specs[playersSelect.value]) || [];
  // what the user changed stays when the seat count changes; the rest takes the new defaults
  const kept = options && optionsBox.dataset.game === gameSelect.value ? options.read() : {};
  optionsBox.dataset.game = gameSelect.value;
  options = optionForm(optionsBox, specs, kept);
}

function showError(message) {
  replace(errorBox, message);
  errorBox.classList.toggle('hidden', !message);
  // below the button on a short screen: a refusal (a bad option, a limit reached) is seen
  if (message) errorBox.scrollIntoView({block: 'nearest'});
}

async function onCreate(event) {
  event.preventDefault();
  showError('');
  const body = {
    game: gameSelect.value,
    players: Number(playersSelect.value),
    options: options ? options.read() : {},
    seats: seatInputs().map((select) => select.value),
    ...(table ? table.read() : {}),
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
    `Seat ${seat.seat + 1} (${seat.level ? `${seat.level}: ${seat.kind}` : seat.open ? 'open seat' : seat.kind}): `,
    seat.open ? el('span', {class: 'muted'}, 'anyone may take it in the lobby') : seat.join_url
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
  const seats = (game.seats || []).map((s) => (s.open && game.status !== 'finished'
    ? takeButton(game, s)
    : el('span', {class: `seat-chip ${s.kind === 'human' ? (s.connected ? 'on' : 'off') : 'bot'}`,
      title: s.kind === 'human' ? (s.connected ? 'connected' : 'not connected') : `bot: ${s.kind}`}, s.name || s.level || s.kind)));
  const link = game.status === 'finished'
    ? el('a', {href: `/replay/${encodeURIComponent(game.id)}`, testid: `replay-${game.id}`}, 'replay')
    : el('a', {href: `/play/${encodeURIComponent(game.id)}`, testid: `watch-${game.id}`}, 'watch');
  return el('tr', {testid: `game-row-${game.id}`, dataset: {gameId: game.id, status: game.status}},
    el('td', {}, (games.find((g) => g.name === game.game) || {}).title || game.game),
    el('td', {class: 'mono'}, game.id),
    el('td', {}, seats),
    el('td', {class: 'num'}, String(game.step ?? '')),
    el('td', {}, (game.scores || []).join(' · ')),
    el('td', {class: 'muted'}, formatTime(game.created)),
    el('td', {}, link));
}

// An open seat: a named player takes it (POST .../seats/{seat}/take); the seat is then theirs,
// reached from any tab by their cookie, and the button goes to its table.
function takeButton(game, seat) {
  return el('button', {type: 'button', class: 'small take-seat', testid: `take-seat-${game.id}-${seat.seat}`,
    title: `take seat ${seat.seat + 1} of this game`, onclick: async (event) => {
      event.target.disabled = true;
      try {
        const taken = await api.takeSeat(game.id, seat.seat);
        location.assign(taken.play_url);
      } catch (err) {
        showListError(`Seat ${seat.seat + 1} could not be taken: ${err.message}`);
        refresh();
      }
    }}, `Take seat ${seat.seat + 1}`);
}

function showListError(message) {
  const box = document.getElementById('games-error');
  replace(box, message);
  box.classList.toggle('hidden', !message);
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
    if (data.table_form) table = tableForm(document.getElementById('table-form'), data.table_form);
  } catch (err) {
    showError(`The catalogue could not be loaded: ${err.message}`);
    return;
  }
  replace(gameSelect, games.map((g) => el('option', {value: g.name}, g.title || g.name)));
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
