// The lobby: create a game (game, players, per seat "me", an open seat, a bot level or another
// agent, the game's options as a form built from its specs: optionform.js, with the advanced
// ones and the seed folded away), show its join links and spectator link, and list the games
// by status, each row saying what one joins (the server's words: title, seats, time control,
// rated, options, host), with a "Take seat" button on open seats and a filter by game.

import * as api from './api.js';
import {showFormError, showServerError} from './formerror.js';
import {optionForm} from './optionform.js';
import {tableForm} from './tableform.js';
import {el, replace} from './util.js';

const STATUSES = ['open', 'running', 'finished'];
const form = document.getElementById('create-form');
const gameSelect = document.getElementById('new-game');
const playersSelect = document.getElementById('new-players');
const seatsBox = document.getElementById('seats');
const optionsBox = document.getElementById('options-form');
const advancedBox = document.getElementById('advanced-options');
const filterSelect = document.getElementById('games-filter');
const FILTER_KEY = 'boardwright.lobby.game'; // the game the list shows, remembered by the browser
const OTHER = 'other'; // the seat choice that reveals the agent strings
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

/** What a seat's choice sends: "human", "open", a level's name, a policy, or the agent string
 *  chosen under "Other agent". */
function seatValue(select) {
  if (select.value !== OTHER) return select.value;
  const other = seatsBox.querySelector(`[data-testid="seat-other-${select.dataset.seat}"]`);
  return other ? other.value : select.value;
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

function describeSeat(select, note, other) {
  const level = levelOf(select.value);
  const policy = policyOf(select.value);
  note.textContent = level ? level.description : policy ? `trained policy: ${policy.description}`
    : select.value === 'open' ? 'anyone may take it in the lobby'
      : select.value === OTHER ? 'a bot by its agent string' : '';
  select.title = level ? `${level.agent} — ${level.description}` : policy ? policy.agent : '';
  other.classList.toggle('hidden', select.value !== OTHER);
  other.disabled = select.value !== OTHER;
}

const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

function seatChoices(game, players) {
  const levels = (game && game.levels) || [];
  const policies = ((game && game.policies) || []).filter((policy) => policy.players === players);
  return [
    el('option', {value: 'human'}, 'Me'),
    el('option', {value: 'open'}, 'Open seat (anyone may take it)'),
    el('optgroup', {label: 'Bot'}, levels.map((level) => el('option', {value: level.name,
      title: `${level.agent} — ${level.description}`, dataset: {agent: level.agent}}, `${capital(level.name)} bot`))),
    ...(policies.length ? [el('optgroup', {label: 'Trained policy'}, policies.map((policy) => el('option',
      {value: policy.agent, title: policy.description}, `Policy ${policy.name}`)))] : []),
    ...(((game && game.agents) || []).length ? [el('option', {value: OTHER}, 'Other agent…')] : []),
  ];
}

function renderSeats() {
  const game = currentGame();
  const n = Number(playersSelect.value);
  const old = seatInputs().map(seatValue);
  const legend = seatsBox.querySelector('legend');
  replace(seatsBox, legend);
  const levels = (game && game.levels) || [];
  const fallback = levels.length ? levels[Math.min(1, levels.length - 1)].name : 'random';
  const agents = (game && game.agents) || [];
  for (let i = 0; i < n; i++) {
    const select = el('select', {class: 'seat-kind', testid: `seat-${i}`, name: `seat-${i}`, id: `seat-${i}`,
      dataset: {seat: String(i)}}, seatChoices(game, n));
    const other = el('select', {class: 'seat-other hidden', testid: `seat-other-${i}`, name: `seat-other-${i}`,
      'aria-label': `Seat ${i + 1}: agent string`}, agents.map((a) => el('option', {value: a}, a)));
    const wanted = old[i] || (i === 0 ? 'human' : fallback);
    if (agents.includes(wanted)) {
      select.value = OTHER;
      other.value = wanted;
    } else {
      select.value = [...select.options].some((o) => o.value === wanted) ? wanted : fallback;
    }
    const note = el('span', {class: 'seat-agent muted', testid: `seat-agent-${i}`});
    select.addEventListener('change', () => describeSeat(select, note, other));
    describeSeat(select, note, other);
    seatsBox.append(el('div', {class: 'seat'}, el('label', {for: `seat-${i}`}, `Seat ${i + 1}`),
      el('span', {class: 'seat-pick'}, select, other), note));
  }
  renderOptions();
}

function renderOptions() {
  const game = currentGame();
  const specs = (game && game.option_specs && game.option_specs[playersSelect.value]) || [];
  // what the user changed stays when the seat count changes; the rest takes the new defaults
  const kept = options && optionsBox.dataset.game === gameSelect.value ? options.read() : {};
  optionsBox.dataset.game = gameSelect.value;
  options = optionForm(optionsBox, specs, kept, advancedBox);
}

function showError(message) {
  showFormError(errorBox, message);
}

async function onCreate(event) {
  event.preventDefault();
  showError('');
  const body = {
    game: gameSelect.value,
    players: Number(playersSelect.value),
    options: options ? options.read() : {},
    seats: seatInputs().map(seatValue),
    ...(table ? table.read() : {}),
  };
  if (seedInput.value.trim() !== '') body.seed = Number(seedInput.value);
  let result;
  try {
    result = await api.createGame(body);
  } catch (err) {
    showServerError(errorBox, err, 'The game was not created: ');
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

// A row says what one joins, in the server's words (listing.py): the title, the time control,
// rated or not, the options that matter and the host; then each seat (its colour name and who
// sits there: a name, a bot level, an open seat with its "Take seat" button) with its score
// once the game has begun; then the move, the date and the id.
function gameRow(game) {
  const id = game.id;
  const seats = (game.seats || []).map((s) => seatChip(game, s));
  const link = game.status === 'finished'
    ? el('a', {href: `/replay/${encodeURIComponent(id)}`, testid: `replay-${id}`}, 'replay')
    : el('a', {href: `/play/${encodeURIComponent(id)}`, testid: `watch-${id}`}, 'watch');
  const facts = [
    el('span', {testid: `game-clock-${id}`}, game.time_control || 'no clock'),
    el('span', {testid: `game-rated-${id}`, class: game.rated ? 'rated-mark' : ''}, game.rated ? 'rated' : 'unrated'),
    ...(game.setup || []).length ? [el('span', {testid: `game-setup-${id}`}, game.setup.join(', '))] : [],
    ...game.host ? [el('span', {testid: `game-host-${id}`}, 'host ', el('strong', {}, game.host))] : [],
  ];
  return el('li', {class: 'game-row', testid: `game-row-${id}`, dataset: {gameId: id, status: game.status, game: game.game}},
    el('div', {class: 'game-row-head'},
      el('strong', {class: 'game-row-title', testid: `game-title-${id}`}, game.title || game.game),
      el('span', {class: 'game-row-facts'}, facts.map((f, i) => [i ? ' · ' : '', f])),
      el('span', {class: 'game-row-link'}, link)),
    el('div', {class: 'game-row-seats', testid: `game-seats-${id}`}, seats),
    el('div', {class: 'game-row-foot muted'},
      `move ${game.step ?? 0} · ${formatTime(game.created)} · `, el('span', {class: 'mono'}, id)));
}

function seatChip(game, s) {
  const open = s.open && game.status !== 'finished';
  const kind = s.kind === 'human' ? (open ? 'open' : s.connected ? 'on' : 'off') : 'bot';
  const score = game.step > 0 || game.status === 'finished' ? (game.score_words || [])[s.seat] : undefined;
  return el('span', {class: `seat-chip ${kind}`, testid: `game-seat-${game.id}-${s.seat}`,
    title: s.kind === 'human' ? (open ? 'open: anyone may take it' : s.connected ? 'connected' : 'not connected') : `bot: ${s.kind}`},
  s.colour ? el('span', {class: 'swatch', style: `background:${s.colour}`}) : '',
  s.seat_name ? `${s.seat_name} ` : `Seat ${s.seat + 1} `,
  el('span', {class: 'seat-who'}, s.label || s.name || s.level || s.kind),
  score !== undefined ? el('span', {class: 'seat-score', testid: `game-score-${game.id}-${s.seat}`}, ` · ${score}`) : '',
  open ? [' ', takeButton(game, s)] : '');
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
  showFormError(document.getElementById('games-error'), message);
}

let generation = 0; // a list fetched before the filter changed is not shown

async function refresh() {
  const mine = ++generation;
  const game = filterSelect.value;
  // The three lists are asked for at once, so a game that starts or ends between two of the
  // answers is in two of them: it is shown once, in the later status (open, running, finished).
  const lists = await Promise.all(STATUSES.map(async (status) => {
    try {
      return {status, list: await api.listGames(status, game || undefined)};
    } catch (err) {
      return {status, error: err};
    }
  }));
  if (mine !== generation) return;
  const later = new Set();
  for (const {status, list, error} of lists.reverse()) {
    const box = document.getElementById(`games-${status}`);
    if (error) {
      replace(box, el('p', {class: 'error'}, error.message));
      continue;
    }
    const shown = list.filter((row) => !later.has(row.id));
    for (const row of list) later.add(row.id);
    box.dataset.filter = game;
    if (!shown.length) {
      replace(box, el('p', {class: 'muted'}, 'None.'));
      continue;
    }
    replace(box, el('ul', {class: 'game-rows'}, shown.map(gameRow)));
  }
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
  setUpFilter();
  gameSelect.addEventListener('change', renderPlayers);
  playersSelect.addEventListener('change', renderSeats);
  form.addEventListener('submit', onCreate);
  document.getElementById('refresh').addEventListener('click', refresh);
  renderPlayers();
  document.body.dataset.ready = 'true';
  refresh();
  setInterval(refresh, 5000);
}

// The filter: which game the lists show, remembered by this browser (localStorage).
function setUpFilter() {
  replace(filterSelect, el('option', {value: ''}, 'all games'),
    games.map((g) => el('option', {value: g.name}, g.title || g.name)));
  let remembered = '';
  try { remembered = localStorage.getItem(FILTER_KEY) || ''; } catch { /* storage refused */ }
  filterSelect.value = games.some((g) => g.name === remembered) ? remembered : '';
  filterSelect.addEventListener('change', () => {
    try { localStorage.setItem(FILTER_KEY, filterSelect.value); } catch { /* storage refused */ }
    refresh();
  });
}

start();
