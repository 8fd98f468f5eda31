// A memdoc hub as the editor's store: the MemoryStore interface the page
// already uses (load, save, history, revision, revert), each one call of the
// hub's REST API (docs/HUB.md), plus `whoami` and `subscribe` for the live
// events. The hub answers with the store's own shapes, so outcomes map
// one to one: 412 and 409 are conflicts, 422 a rejected save with the
// server's diagnostics. Any other problem is thrown as an Error carrying
// the hub's code. The key lives in this object and the tab's
// sessionStorage (see hub-source.js), never in a URL.

/** An Error from a hub problem response (RFC 9457), with its `code` and `status`. */
function problemError(status, problem, fallback) {
  const error = new Error(problem?.detail ?? fallback);
  error.code = problem?.code ?? `http/${status}`;
  error.status = status;
  return error;
}

/**
 * Connect to the hub at `url` with `key`: asks the hub who the key is
 * (`GET /v1/whoami`), then returns the store and that identity.
 * @param {string} url the hub's base URL, e.g. http://127.0.0.1:8787
 * @param {string} key a bearer key (`mdk.…`)
 * @returns {Promise<{ store: object, me: { team: string, member: string, role: string, keyId: string } }>}
 */
export async function connectHub(url, key) {
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    parsed = null;
  }
  if (!parsed || !/^https?:$/.test(parsed.protocol)) {
    const error = new Error("the hub URL must be an http:// or https:// address");
    error.code = "hub/invalid-url";
    throw error;
  }
  const store = hubStore(parsed.origin + parsed.pathname, key);
  const me = await store.whoami();
  store.team = me.team;
  return { store, me };
}

function hubStore(url, key) {
  const base = url.replace(/\/+$/, "");
  let team = null;
  const path = (ref) => `/v1/teams/${encodeURIComponent(team)}/memories/${ref.scope}/${encodeURIComponent(ref.id)}`;

  async function call(method, route, { body, headers = {}, ok = [200] } = {}) {
    const init = { method, headers: { authorization: `Bearer ${key}`, ...headers } };
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers["content-type"] = "application/json";
    }
    let response;
    try {
      response = await fetch(base + route, init);
    } catch (cause) {
      const error = new Error(`the hub at ${base} did not answer`);
      error.code = "hub/unreachable";
      error.cause = cause;
      throw error;
    }
    const text = await response.text();
    let json = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: reported below if the status is not expected
    }
    if (!ok.includes(response.status)) throw problemError(response.status, json, `the hub answered ${response.status}`);
    return { status: response.status, json };
  }

  /** A save or revert answer as the store's SaveOutcome. */
  async function outcomeOf(ref, attempt, baseRevision) {
    const { status, json } = await attempt;
    if (status === 200) return { ...json, changed: json.status === "saved" && json.revision !== baseRevision, notice: json.notice ?? null };
    if (status === 409) {
      // The store's merge stopped at conflicts: its outcome, as the hub relays it.
      return { status: "conflict", content: json.content, changed: false, usage: json.usage, diagnostics: [], dropped: [], revision: json.currentRevision, notice: json.detail, conflicts: json.conflicts ?? [], merged: json.merged ?? null };
    }
    if (status === 412) {
      const current = await load(ref);
      return { status: "conflict", content: current.content, changed: false, usage: current.usage, diagnostics: [], dropped: [], revision: current.revision, notice: json.detail, conflicts: [], merged: null };
    }
    // 422: the save plan was rejected; the memory is unchanged.
    const current = await load(ref);
    return { status: "rejected", content: current.content, changed: false, usage: json.usage ?? current.usage, diagnostics: json.diagnostics ?? [], dropped: [], revision: current.revision, notice: json.detail };
  }

  async function load(ref) {
    return (await call("GET", path(ref))).json;
  }

  const ifMatch = (revision) => ({ "if-match": `"${revision}"` });

  return {
    url: base,
    /** How other writers are named in notices (remote.js). */
    where: "on the hub",
    get team() {
      return team;
    },
    set team(value) {
      team = value;
    },
    whoami: async () => (await call("GET", "/v1/whoami")).json,
    /** The memories the key can open: `[{ scope, id }]` (the team's, and the member's own). */
    memories: async () => (await call("GET", `/v1/teams/${encodeURIComponent(team)}/memories`)).json.memories,
    load,
    save(ref, content, { baseRevision, onConflict = "reject" }) {
      const query = onConflict === "merge" ? "?onConflict=merge" : "";
      const put = call("PUT", `${path(ref)}${query}`, { body: { content }, headers: ifMatch(baseRevision), ok: [200, 409, 412, 422] });
      return outcomeOf(ref, put, baseRevision);
    },
    async history(ref) {
      return (await call("GET", `${path(ref)}/history`)).json.entries;
    },
    async revision(ref, n) {
      const { status, json } = await call("GET", `${path(ref)}/revisions/${n}`, { ok: [200, 404] });
      return status === 200 ? json.content : null;
    },
    revert(ref, revision, { baseRevision }) {
      const post = call("POST", `${path(ref)}/revert`, { body: { revision }, headers: ifMatch(baseRevision), ok: [200, 412, 422] });
      return outcomeOf(ref, post, baseRevision);
    },
    /**
     * Follow the memory's saves: `onEvent({revision, updatedBy, chars, at})`
     * for each. A browser cannot set headers on a WebSocket, so the key goes
     * as the subprotocol `bearer.<key>` beside `memdoc` (docs/HUB.md).
     * Returns a function that stops following.
     */
    subscribe(ref, onEvent, onClose = () => {}) {
      const socket = new WebSocket(`${base.replace(/^http/, "ws")}${path(ref)}/events`, ["memdoc", `bearer.${key}`]);
      let stopped = false;
      socket.addEventListener("message", (e) => {
        try {
          onEvent(JSON.parse(e.data));
        } catch {
          // a message that is not an event: ignored
        }
      });
      socket.addEventListener("close", (e) => {
        if (!stopped) onClose(e);
      });
      return () => {
        stopped = true;
        socket.close(1000, "done");
      };
    },
  };
}
