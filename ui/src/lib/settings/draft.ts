// The provider settings as they are on screen, before they are saved: what ProviderChooser
// edits, "Test the connection" sends, and the settings' Save keeps.

import type { ProviderInfo } from '../bindings/ProviderInfo';
import type { ProviderSetting } from '../bindings/ProviderSetting';
import type { SettingsView } from '../bindings/SettingsView';
import type { TestConnectionRequest } from '../bindings/TestConnectionRequest';

/** The provider part of the settings form. `api_key` is a key typed now ("" keeps the saved one). */
export interface ProviderDraft {
  provider: ProviderSetting;
  base_url: string;
  model: string;
  api_key: string;
  clear_api_key: boolean;
}

/** The draft for the settings `view` shows (a provider set by the environment is kept as is). */
export function draftFrom(view: SettingsView): ProviderDraft {
  const known = view.providers.some((p) => p.kind === view.provider);
  return {
    provider: known || view.set_by_environment.includes('provider') ? view.provider : 'demo',
    base_url: view.base_url,
    model: view.model,
    api_key: '',
    clear_api_key: false,
  };
}

/** The catalogue entry of the draft's provider (none for a scenario file set at start). */
export function entryOf(view: SettingsView, draft: ProviderDraft): ProviderInfo | undefined {
  return view.providers.find((p) => p.kind === draft.provider);
}

/** The `test_connection` request for the draft, or null when there is nothing to test. */
export function testRequest(view: SettingsView, draft: ProviderDraft): TestConnectionRequest | null {
  const entry = entryOf(view, draft);
  if (!entry?.has_service) return null;
  return {
    provider: entry.kind,
    base_url: draft.base_url,
    model: draft.model,
    api_key: draft.api_key.trim() ? draft.api_key : undefined,
    clear_api_key: draft.clear_api_key,
  };
}
