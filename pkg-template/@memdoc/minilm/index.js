// @memdoc/minilm: the weights memdoc's MiniLM embedder runs
// (memdoc/embedders/minilm imports this module when it is given no
// `weights`), in a package of their own so that an install of memdoc that
// never embeds does not download them.

/** all-MiniLM-L6-v2's weights in 16-bit floats (safetensors), next to this module. */
export const weights = new URL("./model.fp16.safetensors", import.meta.url);
