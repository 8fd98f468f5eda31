// Where there is no file system (browsers, workerd: the package's
// "imports": #read-file), a file: URL cannot be read: the embedders' files
// are given as bytes, modules or http(s) URLs there.

/** Always fails: this runtime reads no files. */
export async function readFile(url) {
  throw new Error(`this runtime reads no files (${url.href}): give the bytes, a module or an http(s) URL`);
}
