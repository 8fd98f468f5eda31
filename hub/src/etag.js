// Revisions as HTTP entity tags: a memory's revision n is the strong tag
// `"n"`; a write names the revision it edited in If-Match ("0" creates the
// memory), a read may name the one it holds in If-None-Match.
import { HubProblem } from "./problem.js";

const ETAG = /^"(0|[1-9][0-9]{0,14})"$/;

/** The tag of a revision. */
export const etag = (revision) => `"${revision}"`;

/**
 * The revision the request's If-Match names: 428 without one, 400 for a
 * tag that is not one revision.
 * @param {import("hono").Context} c
 */
export function ifMatch(c) {
  const header = c.req.header("if-match");
  if (header === undefined) throw new HubProblem(428, "http/precondition-required", 'Send If-Match: "<revision>" (the revision you edited; "0" creates the memory).');
  const m = ETAG.exec(header.trim());
  if (!m) throw new HubProblem(400, "http/invalid-if-match", 'If-Match must be one revision tag, like "12".');
  return Number(m[1]);
}

/**
 * Whether the request's If-None-Match names `revision` (weakly or not).
 * @param {import("hono").Context} c
 */
export function holds(c, revision) {
  const tag = etag(revision);
  return c.req.header("if-none-match")?.split(",").some((t) => t.trim() === tag || t.trim() === `W/${tag}`) ?? false;
}
