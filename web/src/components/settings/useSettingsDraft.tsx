import { useMemo, useState } from 'react';
import { toast } from 'react-toastify';
import { compare } from 'fast-json-patch';
import { useMutation, useQuery, useQueryClient, type UseMutationResult } from '@tanstack/react-query';
import {
  getSetting,
  ownDocument,
  ownWebUISettingsQuery,
  saveConsoleSettings,
  useSaveSettings,
  useSettings,
  withSetting,
  type SettingsDocument,
} from '@/api/settings';
import { isApiError } from '@/api/client';
import { useUnsavedChangesToast } from './useUnsavedToast';

/**
 * A settings page's editable copy of the server settings. Fields are read and written by dotted path; the page saves
 * the difference as one JSON-Patch. While the copy differs from what the server has, a persistent 'Unsaved Changes'
 * toast is shown.
 */
export function useSettingsDraft() {
  const settings = useSettings();
  const save = useSaveSettings();
  return useDraftOf({ loaded: settings, save, needsAniDBUsername: true });
}

/**
 * The same editable copy of the signed-in account's own console settings (`User/Current/WebUISettings`): what a
 * non-admin may change on the General page (theme, notifications).
 */
export function useOwnConsoleSettingsDraft() {
  const queryClient = useQueryClient();
  const own = useQuery({ ...ownWebUISettingsQuery(), select: ownDocument });
  const save = useMutation({
    mutationFn: (change: { original: SettingsDocument; changed: SettingsDocument }) => saveConsoleSettings(queryClient, 'own', change),
  });
  return useDraftOf({ loaded: own, save, needsAniDBUsername: false });
}

interface DraftSource {
  loaded: { data: SettingsDocument | undefined; isPending: boolean; error: Error | null };
  save: UseMutationResult<void, Error, { original: SettingsDocument; changed: SettingsDocument }>;
  /** The server settings cannot be saved without AniDB's username (the server validates them). */
  needsAniDBUsername: boolean;
}

function useDraftOf({ loaded, save, needsAniDBUsername }: DraftSource) {
  const saved = loaded.data;
  // The edit remembers which server copy it started from: when the server's settings change (a save, a Trakt token
  // arriving), the page shows the new copy at once instead of one render of a stale "unsaved" draft.
  const [edit, setEdit] = useState<{ base: SettingsDocument; value: SettingsDocument } | null>(null);
  const draft = edit && saved && edit.base === saved ? edit.value : saved;
  const setDraft = (update: (current: SettingsDocument) => SettingsDocument) => {
    if (saved) setEdit((current) => ({ base: saved, value: update(current && current.base === saved ? current.value : saved) }));
  };

  const dirty = useMemo(() => !!saved && !!draft && compare(saved, draft).length > 0, [saved, draft]);
  useUnsavedChangesToast(dirty);

  const errors = isApiError(save.error) ? ((save.error.body as { errors?: Record<string, string[]> })?.errors ?? {}) : {};
  const hasUsername = !needsAniDBUsername || !!getSetting<string>(draft, 'AniDb.Username');

  return {
    loading: loaded.isPending,
    loadError: loaded.error,
    draft,
    dirty,
    get: <T,>(path: string) => getSetting<T>(draft, path),
    set: (path: string, value: unknown) => setDraft((current) => withSetting(current, path, value)),
    reset: () => {
      save.reset();
      setEdit(null);
    },
    errorsFor: (path: string) => errors[path],
    saveError: save.error,
    saving: save.isPending,
    canSave: dirty && hasUsername && !save.isPending,
    save: () => {
      if (!saved || !draft) return;
      save.mutate(
        { original: saved, changed: draft },
        // Failures are toasted by the query client and shown above the form and under their fields.
        { onSuccess: () => toast.success('Settings saved!', { autoClose: 3000 }) },
      );
    },
  };
}

export type SettingsDraft = ReturnType<typeof useSettingsDraft>;
