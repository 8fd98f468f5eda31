// @memdoc/static: the table memdoc's static embedder reads
// (memdoc/embedders/static imports this module when it is given no
// `table`), in a package of its own so that an install of memdoc that
// never embeds does not download it.

/** The static table distilled from all-MiniLM-L6-v2 (256 int8 values a token), next to this module. */
export const table = new URL("./all-MiniLM-L6-v2-static-256.i8", import.meta.url);
