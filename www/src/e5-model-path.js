// Where the page finds the multilingual-e5-small model file, relative to
// the page: the server that serves the editor serves it there when it has
// it (www/vite.config.mjs), and the recall panel asks for it there.

/** The model file's path beside the page. */
export const E5_MODEL_PATH = "models/e5-small-q4.bin";
