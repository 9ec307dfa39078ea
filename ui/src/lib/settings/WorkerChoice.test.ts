import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushSync, mount, tick, unmount } from 'svelte';
import type { WorkersView } from '../bindings/WorkersView';

const own = { id: 'askfirst', name: '', command: '' };
const gemini = { id: 'gemini', name: 'Gemini CLI', command: 'gemini --acp' };
const view = (chosen: typeof own): WorkersView => ({ chosen, choices: [own, gemini] });

const chooseWorker = vi.fn();
vi.mock('../ipc', () => ({
  listWorkers: () => Promise.resolve(view(own)),
  chooseWorker: (id: string, command: string) => chooseWorker(id, command),
}));

const { default: WorkerChoice } = await import('./WorkerChoice.svelte');

let mounted: ReturnType<typeof mount> | undefined;
afterEach(() => {
  if (mounted) unmount(mounted);
  mounted = undefined;
  document.body.replaceChildren();
});

async function settle() {
  for (let i = 0; i < 5; i++) {
    await tick();
    await Promise.resolve();
  }
  flushSync();
}

describe('Who does the work', () => {
  it('lists Ask First’s own agent and the agents found, and uses one with the command as edited', async () => {
    mounted = mount(WorkerChoice, { target: document.body });
    await settle();
    const choices = [...document.querySelectorAll('[data-testid="agent-choice"]')];
    expect(choices.map((c) => c.getAttribute('data-agent'))).toEqual(['askfirst', 'gemini']);
    expect((choices[0] as HTMLInputElement).checked).toBe(true);
    expect(document.querySelector('[data-testid="agent-command"]')).toBeNull();
    (choices[1] as HTMLInputElement).click();
    await settle();
    const command = document.querySelector('[data-testid="agent-command"]') as HTMLInputElement;
    expect(command.value).toBe('gemini --acp');
    expect(document.querySelector('[data-testid="agent-sign-in"]')?.textContent).toContain('GEMINI_API_KEY');
    expect(document.querySelector('[data-testid="agent-not-shut-in"]')?.textContent).toContain(
      'Not shut in yet: what Gemini CLI does with its own tools',
    );
    command.value = 'gemini --acp -m gemini-2.5-flash';
    command.dispatchEvent(new Event('input', { bubbles: true }));
    chooseWorker.mockResolvedValue(view({ ...gemini, command: 'gemini --acp -m gemini-2.5-flash' }));
    (document.querySelector('[data-testid="agent-use"]') as HTMLButtonElement).click();
    await settle();
    expect(chooseWorker).toHaveBeenCalledWith('gemini', 'gemini --acp -m gemini-2.5-flash');
    expect(document.querySelector('[data-testid="agent-saved"]')).not.toBeNull();
  });

  it('shows the choice in the welcome when another agent was found', async () => {
    mounted = mount(WorkerChoice, { target: document.body, props: { quietWhenAlone: true } });
    await settle();
    expect(document.querySelector('[data-testid="workers"]')).not.toBeNull();
  });
});
