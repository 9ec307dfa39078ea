import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EVENT_NAMES } from './events';

const backend = join(import.meta.dirname, '../../../src-tauri');

function rustSources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return rustSources(path);
    return name.endsWith('.rs') ? [path] : [];
  });
}

/** The values of the consts in askfirst-protocol's `pub mod event_names { … }`. */
function protocolEventNames(): string[] {
  const lib = readFileSync(join(backend, 'protocol/src/lib.rs'), 'utf8');
  const module = /pub mod event_names \{([\s\S]*?)\n\}/.exec(lib)?.[1];
  if (module === undefined) throw new Error('protocol/src/lib.rs has no event_names module');
  return [...module.matchAll(/pub const \w+: &str = "([^"]+)";/g)].map((m) => m[1] ?? '');
}

describe('event names', () => {
  it('are every name of the protocol, and only names the backend emits', () => {
    const ours: string[] = Object.values(EVENT_NAMES);
    const protocol = protocolEventNames();
    expect(protocol.length).toBeGreaterThan(0);
    for (const name of protocol) expect(ours).toContain(name);
    // A name not (yet) in the protocol, such as the tray's, is a string const of the shell.
    const rust = [join(backend, 'protocol/src'), join(backend, 'src')]
      .flatMap(rustSources)
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    for (const name of ours) expect(rust).toMatch(new RegExp(`const \\w+: &str = "${name}";`));
  });

  it('are spelled out nowhere in ipc.ts but in events.ts', () => {
    const ipc = readFileSync(join(import.meta.dirname, 'ipc.ts'), 'utf8');
    for (const name of Object.values(EVENT_NAMES)) expect(ipc).not.toContain(`'${name}'`);
    expect(ipc).toContain('EVENT_NAMES.');
  });
});
