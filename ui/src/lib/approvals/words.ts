// The sentences the card says about a request from another agent on this computer (the
// inbox), in one place for the translation catalogues.

export const externalWords = {
  /** The card's first line for another agent's request (ours says "The agent wants to"). */
  eyebrow: 'Another program on this computer asks',
  /** The heading of the block that says who asks. */
  whoAsksTitle: 'Who asks',
  /** The block's text: "Claude Code, in the folder ~/projects/site". */
  whoAsks: (agent: string, folder: string) => `${agent}, in the folder ${folder}`,
  /** With the command it would run. */
  whoAsksToRun: (agent: string, folder: string, command: string) =>
    `${agent}, in the folder ${folder}, would run:\n${command}`,
  /** The block's tooltip. */
  tooltip: (agent: string) =>
    `This request comes from ${agent}, another program on this computer, not from Ask First's own assistant. It works in its own folder, not the one you chose for Ask First.`,
};
