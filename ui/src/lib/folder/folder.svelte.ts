// The folder the agent works in, as the window shows it (the folder line, the welcome, the
// settings): read from the backend, changed through the native picker or to the demo folder.
// The backend checks a chosen folder and answers with a sentence when it refuses one.

import * as ipc from '../ipc';
import { t } from '../i18n/i18n.svelte';
import type { FolderView } from '../bindings/FolderView';

export class FolderState {
  /** The folder of the conversation in the window, once read. */
  view = $state<FolderView | null>(null);
  /** Why the last change was refused (a sentence for the person), or null. */
  error = $state<string | null>(null);
  /** A change is being made (the picker is open). */
  busy = $state(false);
  #onchanged: () => void;

  /** `onchanged`: called after the folder changed (a new conversation may have started, and
   * no grant carries over: the window reads them again). */
  constructor(onchanged: () => void = () => {}) {
    this.#onchanged = onchanged;
  }

  /** Reads the folder again (at start, after a conversation was opened or started). */
  async refresh(): Promise<void> {
    try {
      this.view = await ipc.getFolder();
    } catch (e) {
      console.error('could not read the folder', e);
    }
  }

  async #change(change: () => Promise<FolderView | null>): Promise<boolean> {
    if (this.busy) return false;
    this.busy = true;
    this.error = null;
    try {
      const view = await change();
      if (view) {
        this.view = view;
        this.#onchanged();
      }
      return view !== null;
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e);
      return false;
    } finally {
      this.busy = false;
    }
  }

  /** Opens the picker; returns whether a folder was chosen and taken. */
  pick(): Promise<boolean> {
    return this.#change(async () => {
      const answer = await ipc.pickFolder();
      this.view = answer.folder;
      return answer.chosen ? answer.folder : null;
    });
  }

  /** Makes the demo folder the agent's. */
  useDemo(): Promise<boolean> {
    return this.#change(() => ipc.useDemoFolder());
  }
}

/** The folder line's sentence: "Working in: ~/Documents/Taxes", "Working in the demo folder
 * (sample files)", or that the conversation's folder is gone. */
export function folderSentence(view: FolderView): string {
  if (view.missing) return t('folder-missing', { folder: view.display });
  if (view.is_demo) return t('folder-demo');
  return t('folder-working-in', { folder: view.display });
}
