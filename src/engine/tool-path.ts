// Where a program is: its absolute path on PATH, found once per PATH value.
import * as fs from 'node:fs';
import * as path from 'node:path';

const toolPaths = new Map<string, Promise<string>>();

/**
 * The tool's absolute path, looked up once per PATH value. Searching every PATH folder (one stat after
 * another) on every call costs a few milliseconds each time, and the action makes a dozen calls before the
 * user's command starts. A failed lookup is not remembered.
 */
export function toolPath(tool: string): Promise<string> {
  const key = `${process.env.PATH ?? ''}\0${tool}`;
  let found = toolPaths.get(key);
  if (!found) {
    found = findOnPath(tool, process.env.PATH ?? '');
    toolPaths.set(key, found);
    found.catch(() => toolPaths.delete(key));
  }
  return found;
}

/**
 * The first executable file named `tool` in PATH's folders, in PATH's order (a name with a slash is taken
 * as a path). Looked up synchronously: a few stat calls once per tool and PATH value, instead of a round of
 * the thread pool per folder before the first process can start. (Not @actions/io's `which`: its module,
 * with `assert`, costs the start of every step.)
 */
function findOnPath(tool: string, searchPath: string): Promise<string> {
  const candidates = tool.includes('/')
    ? [path.resolve(tool)]
    : searchPath
        .split(path.delimiter)
        .filter((dir) => dir)
        .map((dir) => path.join(dir, tool));
  const first = candidates.find((file) => {
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return fs.statSync(file).isFile();
    } catch {
      return false;
    }
  });
  if (!first)
    return Promise.reject(
      new Error(`Unable to locate executable file: ${tool} (not an executable file on PATH).`),
    );
  return Promise.resolve(first);
}
