/** all-MiniLM-L6-v2's weights in 16-bit floats (safetensors), next to this module. */
export const weights: URL;
