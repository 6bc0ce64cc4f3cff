// A game's websocket: reconnects with exponential backoff after a dropped connection.
// Nothing is re-sent after a reconnect: the server sends the current state on every connect,
// so the page simply redraws from it (a move that was lost in flight is made again by the player).

// Close codes after which reconnecting cannot help: unknown game, invalid seat token.
const PERMANENT_CLOSE = new Set([4403, 4404]);

export class GameSocket {
  /**
   * @param {string} url  ws:// or wss:// URL
   * @param {{onFrame: Function, onStatus: Function, protocols: string[]}} handlers
   *   protocols: the websocket subprotocols offered (gameSocketProtocols: a seat's token)
   */
  constructor(url, {onFrame, onStatus, protocols} = {}) {
    this.url = url;
    this.protocols = protocols || [];
    this.onFrame = onFrame || (() => {});
    this.onStatus = onStatus || (() => {});
    this.ws = null;
    this.attempt = 0;
    this.closed = false;
    this.timer = null;
    this.pingTimer = null;
    this.status = 'connecting';
  }

  connect() {
    this.closed = false;
    this._open();
    return this;
  }

  _setStatus(status, detail = '') {
    this.status = status;
    this.onStatus(status, detail);
  }

  _open() {
    clearTimeout(this.timer);
    this._setStatus(this.attempt ? 'reconnecting' : 'connecting');
    let ws;
    try {
      ws = this.protocols.length ? new WebSocket(this.url, this.protocols) : new WebSocket(this.url);
    } catch (err) {
      this._schedule();
      return;
    }
    this.ws = ws;
    ws.addEventListener('open', () => {
      this.attempt = 0;
      this._setStatus('connected');
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({type: 'ping'}), 25000);
    });
    ws.addEventListener('message', (event) => {
      let frame;
      try {
        frame = JSON.parse(event.data);
      } catch {
        return;
      }
      this.onFrame(frame);
    });
    ws.addEventListener('close', (event) => {
      clearInterval(this.pingTimer);
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.closed || PERMANENT_CLOSE.has(event.code)) {
        this.closed = true;
        this._setStatus('closed', event.reason || '');
      } else {
        this._schedule(event.code);
      }
    });
    ws.addEventListener('error', () => {
      // 'close' follows and schedules the retry.
    });
  }

  _schedule(code) {
    this.attempt += 1;
    // 0.5 s, 1 s, 2 s, 4 s, 8 s, then every 10 s, each with up to 30 % jitter.
    const base = Math.min(500 * 2 ** (this.attempt - 1), 10000);
    const delay = base * (1 + Math.random() * 0.3);
    this._setStatus('reconnecting', `retry in ${(delay / 1000).toFixed(1)} s`);
    this.timer = setTimeout(() => this._open(), delay);
  }

  /** Send a frame; returns false when the socket is not open (nothing is queued). */
  send(frame) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(frame));
    return true;
  }

  /** Stop for good (no reconnect). */
  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.pingTimer);
    if (this.ws) this.ws.close();
  }

  /** Drop the current connection and reconnect at once (used by tests and the UI). */
  reconnectNow() {
    this.attempt = 0;
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.close();
    }
    this._open();
  }
}

// The websocket's address never carries a seat token: servers and proxies log addresses. The
// token travels in the handshake's Sec-WebSocket-Protocol header instead, as the subprotocol
// "boardwright.token.<token>" offered next to "boardwright" (the one the server picks).
export const SUBPROTOCOL = 'boardwright';
export const TOKEN_PREFIX = 'boardwright.token.';

export function gameSocketUrl(gameId) {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}/ws/games/${encodeURIComponent(gameId)}`;
}

export function gameSocketProtocols(token) {
  return token ? [SUBPROTOCOL, TOKEN_PREFIX + token] : [];
}
