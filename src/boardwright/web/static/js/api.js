// The HTTP API of the boardwright web table (see the server's contract).

export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

async function request(method, url, body) {
  const init = {method, headers: {Accept: 'application/json'}};
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(url, init);
  } catch (err) {
    throw new ApiError(`the server cannot be reached (${err.message})`, 0);
  }
  let data = null;
  const text = await response.text();
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (!response.ok) {
    const message = (data && (data.error || data.detail)) || `HTTP ${response.status}`;
    throw new ApiError(typeof message === 'string' ? message : JSON.stringify(message), response.status);
  }
  return data;
}

/** {"games": [{"name", "title", "description", "players": [...], "min_players", "max_players",
 *  "player_ranges": [{"min", "max", "options", "note"}], "information", "chance",
 *  "seats": [{"name", "colour"}, ...], "hooks": [...], "option_specs": {"<players>": [spec, ...]},
 *  "options_help": {...}, "levels": [...], "agents": [...],
 *  "policies": [{"name", "agent", "players", "description"}]}]} */
export const catalog = () => request('GET', '/api/catalog');

/** body: {game, players, options, seats, seed?} -> {id, seats: [...], spectate_url} */
export const createGame = (body) => request('POST', '/api/games', body);

/** An open seat's token for the caller: {id, seat, token, join_url} (409 when not open). */
/** status: "open" | "running" | "finished" | undefined; game: a game's name (undefined: all).
 *  Each entry carries its row's words: title, time_control, rated, setup, host, score_words,
 *  and per seat its label, seat_name and colour. */
export function listGames(status, game) {
  const query = new URLSearchParams();
  if (status) query.set('status', status);
  if (game) query.set('game', game);
  const text = query.toString();
  return request('GET', text ? `/api/games?${text}` : '/api/games');
}

export const getGame = (id) => request('GET', `/api/games/${encodeURIComponent(id)}`);

/** {game, players, steps, frames, actions, descriptions} (finished games only). */
export const getReplay = (id) => request('GET', `/api/games/${encodeURIComponent(id)}/replay`);

/** {step, view, action} */
export const getReplayStep = (id, step) =>
  request('GET', `/api/games/${encodeURIComponent(id)}/replay/${step}`);

/** {status: "none" | "queued" | "running" | "done" | "failed", done, total, analysis, error}
 *  (finished games only: 409 otherwise). */
export const getAnalysis = (id) => request('GET', `/api/games/${encodeURIComponent(id)}/analysis`);

/** Starts the analysis of a finished game (or returns the stored one). */
export const startAnalysis = (id) => request('POST', `/api/games/${encodeURIComponent(id)}/analysis`);

// -- named players and ratings (the identity is an HTTP-only cookie the browser sends) --------

/** {id, name} of this browser's player; both null without one. */
export const getMe = () => request('GET', '/api/me');

/** Choose a name (the first time: the server sets the cookie) or change it. */
export const setMyName = (name) => request('POST', '/api/me', {name});

/** The games where this player holds a seat: summaries with my_seat and url. */
export const myGames = () => request('GET', '/api/me/games');

/** Take an open seat of a game -> {game, seat, play_url}. */
export const takeSeat = (id, seat) =>
  request('POST', `/api/games/${encodeURIComponent(id)}/seats/${seat}/take`);

/** {game, players: [{rank, name, kind, rating, mu, sigma, games}]} */
export const leaderboard = (game) => request('GET', `/api/leaderboard/${encodeURIComponent(game)}`);
