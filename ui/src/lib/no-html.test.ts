import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// Text from a model, a tool or an MCP server must never become HTML in the webview.
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(svelte|ts)$/.test(name) && !name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('UI sources', () => {
  it('never insert HTML from strings', () => {
    const offenders = sources(join(import.meta.dirname, '..')).filter((file) =>
      /innerHTML|outerHTML|insertAdjacentHTML|\{@html|document\.write/.test(readFileSync(file, 'utf8')),
    );
    expect(offenders).toEqual([]);
  });

  it('import @tauri-apps/api only in ipc.ts', () => {
    const offenders = sources(join(import.meta.dirname, '..')).filter(
      (file) => !file.endsWith('/lib/ipc.ts') && readFileSync(file, 'utf8').includes('@tauri-apps/api'),
    );
    expect(offenders).toEqual([]);
  });
});
