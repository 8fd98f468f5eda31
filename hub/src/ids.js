// The ids a client names in a path or a body, one rule each, shared by the
// REST routes and the MCP tools (docs/HUB.md, "Tenancy, keys, roles"). A
// member id is also the id of the member's user memory, so it starts with
// a letter or digit as every memory id does: never "." or "..", which a
// URL resolves away, nor an id the store refuses. hub/openapi.json states
// the same patterns (a test compares them).

/** A member id: 1-64 of A-Z a-z 0-9 . _ @ -, starting with a letter or digit. */
export const MEMBER = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;
/** A team memory id: 1-128 of A-Z a-z 0-9 . _ @ : -, starting with a letter or digit. */
export const MEMORY_ID = /^[A-Za-z0-9][A-Za-z0-9._@:-]{0,127}$/;
export const ROLES = ["reader", "writer", "admin"];
