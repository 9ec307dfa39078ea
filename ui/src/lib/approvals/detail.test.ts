import { describe, expect, it } from 'vitest';
import { detailView } from './detail';

describe('detailView of a request from another agent', () => {
  it('says who asks and in which folder, and the exact command it would run', () => {
    const who = detailView({ kind: 'external', agent: 'Claude Code', folder: '~/projects/site' });
    expect(who.title).toBe('Who asks');
    expect(who.text).toBe('Claude Code, in the folder ~/projects/site');
    expect(who.testId).toBe('approval-external');
    expect(who.tooltip).toContain('not the one you chose for Ask First');
    const run = detailView({
      kind: 'external',
      agent: 'Gemini CLI',
      folder: '/srv/app',
      command: 'rm -rf build\n<b>x</b>',
    });
    // The sentence is the block's heading, the command exactly as sent is its text.
    expect(run.title).toBe('Gemini CLI, in the folder /srv/app, would run:');
    expect(run.text).toBe('rm -rf build\n<b>x</b>');
  });
});
