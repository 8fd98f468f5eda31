// The one place the page touches the memdoc package, imported exactly as an
// npm consumer would: the package's browser entry, initialised with
// `await init()` (the wasm is bundled by Vite as a local asset, no CDN), and
// its localStorage adapter for the store.

import init, * as memdoc from "memdoc";
import { localStorageHost } from "memdoc/adapters/local-storage";

/** Load the wasm and return the package's exports. */
export async function startEngine() {
  await init();
  return memdoc;
}

/** A MemoryStore over this origin's localStorage (shared by all its tabs). */
export function createStore(engine, limits) {
  if (typeof engine.MemoryStore !== "function") {
    throw new Error("this build of memdoc has no MemoryStore, so memories cannot be loaded or saved");
  }
  return new engine.MemoryStore(localStorageHost(window.localStorage), limits ? { limits } : {});
}
