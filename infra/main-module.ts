import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Whether the module at `moduleUrl` is the script node was started with. Node runs a main module from its real path
 * while `process.argv[1]` keeps the path as typed, so comparing them as given fails (and the script silently does
 * nothing) whenever the checkout is reached through a symbolic link.
 */
export function isMainModule(moduleUrl: string): boolean {
  const started = process.argv[1];
  if (!started) return false;
  try {
    return realpathSync(started) === realpathSync(fileURLToPath(moduleUrl));
  } catch {
    return false;
  }
}
