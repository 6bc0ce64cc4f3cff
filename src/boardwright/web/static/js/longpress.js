// A long press on a touch screen: what hovering shows with a mouse. A finger resting on a
// thing for LONG_PRESS_MS (without moving off it) calls `onPress`; the click the browser makes
// when that finger lifts is swallowed, so that previewing a figure spot never places the figure.
// A tap stays a tap (a click), and a finger that moves is a pan, never a press.

export const LONG_PRESS_MS = 500;
const SLOP_PX = 10;  // how far a resting finger may wander

/** Make `node` answer a long touch with `onPress(event)`. */
export function longPress(node, onPress) {
  let timer = null;
  let start = null;
  let pressed = false;
  const cancel = () => {
    clearTimeout(timer);
    timer = null;
  };
  node.addEventListener('pointerdown', (e) => {
    if (e.pointerType !== 'touch') return;
    pressed = false;
    start = [e.clientX, e.clientY];
    cancel();
    timer = setTimeout(() => {
      timer = null;
      pressed = true;
      onPress(e);
    }, LONG_PRESS_MS);
  });
  node.addEventListener('pointermove', (e) => {
    if (timer && start && Math.hypot(e.clientX - start[0], e.clientY - start[1]) > SLOP_PX) cancel();
  });
  for (const type of ['pointerup', 'pointercancel', 'pointerleave']) node.addEventListener(type, cancel);
  node.addEventListener('contextmenu', (e) => {  // a long touch's menu would cover the preview
    if (pressed || timer) e.preventDefault();
  });
  node.addEventListener('click', (e) => {
    if (!pressed) return;
    pressed = false;
    e.stopImmediatePropagation();
    e.preventDefault();
  }, true);
  return node;
}
