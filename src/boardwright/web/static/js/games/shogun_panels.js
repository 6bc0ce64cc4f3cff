// Rise of the Shogun's panels drawn from the game's own data: the running duel (each play in
// the game's words: its counted value with combo, what an ignore or purge hits) and the end
// (each seat's score by source, its mission and treasures laid open). `t` is the table's
// Shogun object (names, colours, content data, tooltips).

import {el, replace} from '../util.js';

const DUEL_STEPS = {block: 'the defender may block', exchange: 'both sides may add cards', aftermath: 'effects of the result', over: 'over'};
const CHOICES = {discard: 'discard', pick: 'pick a card to be discarded from', clear: 'clear', recall: 'take back'};

/** Every seat's score by source with its mission and treasures, for the phase box at the end. */
export function finalScores(t, v) {
  const rows = (v.seats || []).map((s) => {
    const sc = s.score || {};
    const parts = [`castles ${sc.castles}`, `chain ${sc.chains}`, `prisoners ${sc.prisoners}`,
      `treasures ${sc.treasures ?? '?'}`].join(' + ');
    const mission = s.mission ? (t.data.missions[s.mission] || {}).name || s.mission : 'none';
    const treasures = (s.treasures || []).map((id) => t.treasureName(id)).join(', ') || 'none';
    return el('li', {testid: `source-score-${s.seat}`},
      el('span', {class: 'swatch', style: `background:${t.seatColour(s.seat)}`}),
      ` ${t.seatName(s.seat)}: ${sc.total} VP = ${parts}`,
      el('div', {class: 'muted'}, `mission: ${mission} · treasures: ${treasures}`));
  });
  return el('div', {testid: 'score-by-source'}, el('div', {}, 'Final score by source:'), el('ul', {}, rows));
}

/** The duel box: target, step, totals, each play in words, a pending choice, the outcome. */
export function drawDuel(t, v) {
  const d = v.duel;
  if (!d) {
    t.duelBox.classList.add('hidden');
    return;
  }
  const kinds = {hero: 'hero', peasant: 'peasant', courted_castle: 'courted castle', controlled_castle: 'castle', conversion: 'peasant (conversion)'};
  const target = d.target ? `the ${kinds[d.target.kind] || d.target.kind}${d.target.space ? ` in ${t.spaceName(d.target.space)}` : ''}` : '';
  const plays = (d.plays || []).map((p) => {
    const name = t.data.cards[p.card] ? t.cardName(p.card) : t.treasureName(p.card);
    const state = p.purged ? ' (purged)' : p.active ? '' : ' (ignored)';
    const item = el('li', {class: p.active && !p.purged ? '' : 'inactive', dataset: {card: p.card}, tabindex: 0},
      el('span', {class: 'swatch', style: `background:${t.seatColour(p.seat)}`}), ` ${name} `,
      // the game's words: counted value with combo, what an ignore or purge hits
      el('span', {class: 'muted', testid: 'duel-play-words'}, (d.play_words && d.play_words[p.index])
        ? d.play_words[p.index].text.slice(d.play_words[p.index].text.indexOf(':') + 2)
        : `${p.category.replace(/_/g, ' ')}${state}`));
    if (t.data.cards[p.card]) t.attachTip(item, () => t.cardTip(p.card));
    else if (t.data.treasures[p.card]) t.attachTip(item, () => t.treasureTip(p.card));
    return item;
  });
  let choice = '';
  if (d.pending) {
    const c = d.pending;
    const whose = c.chooser === c.victim ? 'their own' : `${t.seatName(c.victim)}'s`;
    choice = el('div', {testid: 'duel-choice'}, `${t.seatName(c.chooser)} must ${CHOICES[c.kind] || c.kind} ${c.remaining} card${c.remaining === 1 ? '' : 's'}${c.kind === 'pick' ? ` ${whose} hand` : c.kind === 'recall' ? ' from the discard pile' : c.kind === 'clear' ? ' from their pile tops' : ` from ${whose} hand`}${c.optional ? ' (up to, may stop)' : ''} — ${t.cardName(c.source)}.`);
  }
  const outcome = d.outcome ? el('div', {}, el('b', {}, `${t.seatName(d.outcome.attacker)} ${d.outcome.success ? 'wins' : 'loses'}: attack ${d.outcome.attack_total} against block ${d.outcome.block_total}.`)) : '';
  replace(t.duelBox,
    el('h4', {}, `${d.conversion ? 'Conversion' : 'Duel'}: ${t.seatName(d.attacker)} attacks ${t.seatName(d.defender)}`),
    el('div', {}, `Target: ${target} · now: ${DUEL_STEPS[d.phase] || d.phase}`),
    el('div', {class: 'totals', testid: 'duel-totals'}, `Attack ${d.attack_total} — Block ${d.block_total}`),
    plays.length ? el('ol', {}, plays) : el('div', {class: 'muted'}, 'No card played yet.'),
    choice,
    d.revealed_hand ? el('div', {}, `Their hand: ${d.revealed_hand.map((c) => t.cardName(c)).join(', ')}`) : '',
    outcome);
  t.duelBox.classList.remove('hidden');
}
