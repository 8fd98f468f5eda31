// RFC 9457 problem responses: every error the hub answers is one of these,
// with a stable `code` that clients can branch on.

const TITLES = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  408: "Request Timeout",
  409: "Conflict",
  412: "Precondition Failed",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  426: "Upgrade Required",
  428: "Precondition Required",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

/** An error the routes throw; `toResponse` turns it into a problem response. */
export class HubProblem extends Error {
  /**
   * @param {number} status
   * @param {string} code stable, e.g. "auth/invalid-key"
   * @param {string} detail one human sentence
   * @param {{ headers?: Record<string, string>, extra?: Record<string, unknown> }} [more]
   */
  constructor(status, code, detail, more = {}) {
    super(detail);
    this.status = status;
    this.code = code;
    this.headers = more.headers ?? {};
    this.extra = more.extra ?? {};
  }
}

export function problemResponse(status, code, detail, more = {}) {
  const body = {
    type: `https://github.com/memdoc/memdoc/blob/main/docs/HUB.md#${code.replace(/\//g, "-")}`,
    title: TITLES[status] ?? "Error",
    status,
    detail,
    code,
    ...(more.extra ?? {}),
  };
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/problem+json", ...(more.headers ?? {}) },
  });
}

/** @param {HubProblem} problem */
export function toResponse(problem) {
  return problemResponse(problem.status, problem.code, problem.message, { headers: problem.headers, extra: problem.extra });
}

/** The answer to any error a route threw (`app.onError`): `asProblem`'s. */
export function errorResponse(error) {
  return toResponse(asProblem(error));
}

/**
 * Any error a route or an MCP tool threw, as the problem it is answered
 * with: a HubProblem as itself, a failure of the storage 503, anything
 * else 500 (its `internal/` code kept, nothing else of it).
 * @param {unknown} error
 * @returns {HubProblem}
 */
export function asProblem(error) {
  if (error instanceof HubProblem) return error;
  const code = typeof error?.code === "string" ? error.code : "internal/error";
  if (code === "store/host-failed") return new HubProblem(503, code, "The hub's storage failed; nothing was changed. Try again.");
  return new HubProblem(500, code.startsWith("internal/") ? code : "internal/error", "The hub failed to answer this request.");
}

/** The answer to a path no route serves (`app.notFound`). */
export const noRoute = () => problemResponse(404, "http/not-found", "There is no such route.");

/** The engine's coded error as a 400 problem; anything else unchanged. */
export function engineProblem(error) {
  if (typeof error?.code === "string" && error.code.startsWith("options/")) {
    return new HubProblem(400, error.code, error.message);
  }
  return error;
}
