// What the window shows for any error: the sentence for the person and, apart, the technical
// detail (shown only behind "Details"). The backend words its errors (src-tauri/core/src/app/
// codes.rs); this file only carries them, and words what reaches the window without words.

import { t } from '../i18n/i18n.svelte';

/** An error as the window shows it. */
export interface ErrorInfo {
  /** What happened and what to do, in plain sentences. */
  message: string;
  /** The technical detail (error chain, path, status), shown only on a click; null if none. */
  detail: string | null;
}

/** What the window says when something failed that the backend did not word (a bug). */
export const internalFailure = (): string => t('internal-failure');

/** The most characters of a detail shown; the rest is said to be left out. */
export const MAX_DETAIL_CHARS = 4000;

/**
 * `error` as the window shows it. A command's error (`IpcError`, from ipc.ts) carries its own
 * message and detail; anything else that is an `Error` keeps its message; a thrown value that
 * is not an `Error` is worded as a failure inside Ask First, with the value as the detail.
 */
export function toNotice(error: unknown): ErrorInfo {
  if (error instanceof Error) {
    const detail = (error as { detail?: unknown }).detail;
    return {
      message: error.message || internalFailure(),
      detail: typeof detail === 'string' && detail !== '' ? detail : null,
    };
  }
  return { message: internalFailure(), detail: String(error) };
}

/** A detail cut to `max` characters (whole code points), and how many were left out. */
export function boundedDetail(
  detail: string,
  max: number = MAX_DETAIL_CHARS,
): { shown: string; leftOut: number } {
  const points = Array.from(detail);
  if (points.length <= max) return { shown: detail, leftOut: 0 };
  return { shown: points.slice(0, max).join(''), leftOut: points.length - max };
}
