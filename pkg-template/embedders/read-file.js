// A file: URL's bytes, in Node and Deno (the package's "imports": #read-file).
import { readFile as read } from "node:fs/promises";

/** The bytes of the file at `url`. */
export async function readFile(url) {
  return new Uint8Array(await read(url));
}
