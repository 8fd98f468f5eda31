// The page's one state: which memory is open, the revision being edited
// (its content is `previous` for validation), and the editor (which holds
// the last check of the text in its own state: editor.js, `reportField`).
// Every other module reads and writes it here; nothing else keeps a copy.

export const params = new URLSearchParams(location.search);

/** Optional limits from the URL (`?soft=…&hard=…`), used for validation and by the store alike. */
function limitsFromUrl() {
  const limits = {};
  for (const name of ["soft", "hard"]) {
    const value = params.get(name);
    if (value !== null && /^\d+$/.test(value)) limits[name] = Number(value);
  }
  return Object.keys(limits).length ? limits : undefined;
}

export const state = {
  engine: null,
  store: null,
  editor: null,
  limits: limitsFromUrl(),
  hub: null, // the key's identity ({ team, member, role, keyId }) when the source is a hub
  ref: null,
  actor: "editor",
  base: "", // the content of the revision being edited: `previous` for validation
  baseRevision: 0,
  updatedAt: null,
  updatedBy: null,
  dirty: false, // the text differs from the revision, as of the last check
  conflict: null, // { theirs: Loaded, baseRevision, base }
  busy: false,
};

/** The options of every `validate` call: the open memory's scope, its base revision, the limits. */
export function validateOptions() {
  return {
    scope: state.ref?.scope ?? "user",
    previous: state.baseRevision > 0 ? state.base : null,
    ...(state.limits ? { limits: state.limits } : {}),
  };
}

/** One line for an error thrown by the engine, the store or its host (code and cause included). */
export function describeError(error) {
  const code = error && typeof error === "object" && "code" in error ? ` (${error.code})` : "";
  const cause = error?.cause ? `: ${error.cause.message ?? String(error.cause)}` : "";
  return `${error?.message ?? String(error)}${code}${cause}`;
}
