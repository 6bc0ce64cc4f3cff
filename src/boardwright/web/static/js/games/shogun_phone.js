// Rise of the Shogun on a phone: the map keeps the top of the screen and the panel below it
// scrolls on its own (main.css). When a duel starts, that panel is scrolled to the duel box so
// the duel and the hand under it are on screen with the map; the hand is one row that scrolls
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
  const hand = t.handBox;
  const card = hand.querySelector('.sh-card.playable');
  if (card) {
    const x = card.offsetLeft - hand.offsetLeft;  // within the row, whatever its scroll
    if (x < hand.scrollLeft || x + card.offsetWidth > hand.scrollLeft + hand.clientWidth) hand.scrollLeft = x;
  }
}
