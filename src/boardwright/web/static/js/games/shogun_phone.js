// Rise of the Shogun on a phone: the map keeps the top of the screen and the panel below it
// scrolls on its own (main.css). When a duel starts, that panel is scrolled to the duel box so
// the duel and the hand under it are on screen with the map, and the map is panned to the
// duel's province when it is out of sight; the hand is one row that scrolls
// sideways, turned so that the first card that can be played now shows. The player's own
// scrolling is left alone for the rest of the duel.

const PHONE = '(max-width: 600px)';

/** Whether the phone layout is the one in use. */
function onPhone() {
  return typeof window.matchMedia === 'function' && window.matchMedia(PHONE).matches;
}

/** A duel's identity: who attacks whom, and where, in which round. */
function duelKey(v) {
  const d = v.duel;
  if (!d) return null;
  const target = d.target || {};
  return [v.round, d.attacker, d.defender, target.kind, target.space].join('|');
}

/** Pan the map (same zoom) so that province `id` is in sight, unless it already is. */
function showSpace(t, id) {
  const s = id && t.spaces.get(id);
  const view = t.pz && t.pz.view;
  if (!s || !view) return;
  const [x, y, w, h] = view;
  const margin = Math.min(w, h) * 0.12;
  if (s.x > x + margin && s.x < x + w - margin && s.y > y + margin && s.y < y + h - margin) return;
  t.pz.set([s.x - w / 2, s.y - h / 2, w, h]);
}

/** After the panel is drawn: bring a duel that has just started into view (phones only). */
export function followDuel(t, v) {
  const key = duelKey(v);
  const started = key !== null && key !== t.phoneDuelKey;
  t.phoneDuelKey = key;
  if (!onPhone()) return;
  const side = t.ctx.panel.closest('.side');
  if (started && side && !t.duelBox.classList.contains('hidden')) {
    const top = t.duelBox.getBoundingClientRect().top - side.getBoundingClientRect().top + side.scrollTop;
    side.scrollTop = Math.max(0, top - 4);
  }
  if (started) showSpace(t, (v.duel.target || {}).space);
  const hand = t.handBox;
  const card = hand.querySelector('.sh-card.playable');
  if (card) {
    const x = card.offsetLeft - hand.offsetLeft;  // within the row, whatever its scroll
    if (x < hand.scrollLeft || x + card.offsetWidth > hand.scrollLeft + hand.clientWidth) hand.scrollLeft = x;
  }
}
