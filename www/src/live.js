// Live changes from the hub: the open memory's events (a WebSocket). Each
// event says a revision was saved; the page then checks, exactly as for a
// save in another tab (remote.js): an untouched memory follows along, an
// edited one gets a notice that offers the merge, and the draft stays.
// A save of this page arrives as an event too: the check finds the page
// already at that revision and says nothing.

import { state } from "./session.js";
import { checkRemote } from "./remote.js";

let following = null; // { store, key, stop }

function stopFollowing() {
  following?.stop();
  following = null;
}

/** Wait until no save of this page is in flight, then check. */
function checkWhenIdle() {
  if (state.busy) {
    setTimeout(checkWhenIdle, 50);
    return;
  }
  checkRemote();
}

/** Follow the open memory's events when the store has them; stop following anything else. */
export function followOpenMemory() {
  const { store, ref } = state;
  if (!store?.subscribe || !ref) {
    stopFollowing();
    return;
  }
  const key = `${ref.scope}/${ref.id}`;
  if (following && following.store === store && following.key === key) return;
  stopFollowing();
  const stop = store.subscribe(
    ref,
    (event) => {
      if (state.ref !== ref) return;
      if (event.revision > state.baseRevision) checkWhenIdle();
    },
    () => {
      // The socket closed (the hub restarted, the network went away): try
      // again shortly, and catch up on what was missed.
      if (following?.stop !== stop) return;
      following = null;
      setTimeout(() => {
        if (state.store === store && state.ref === ref) {
          followOpenMemory();
          checkWhenIdle();
        }
      }, 1000);
    },
  );
  following = { store, key, stop };
}
