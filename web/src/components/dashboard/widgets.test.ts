import { describe, expect, it } from 'vitest';
import { ACTION_CATALOGUE } from '@shoko-ts/contract';
import { visibleWidgets } from '@/pages/dashboard/DashboardPage';
import { actionToast } from '@/components/actions/ActionsModal';
import { mediaTypeShares } from './CollectionWidgets';
import { DEFAULT_DASHBOARD_SETTINGS } from './settings';

describe('dashboard widgets', () => {
  it('folds the rarer AniDB types into Other', () => {
    const shares = mediaTypeShares({ Series: 5, OVA: 2, Movie: 1, Special: 3, Web: 4, Other: 1, MusicVideo: 1, Unknown: 1, None: 2 });
    expect(shares).toEqual([
      ['TV Series', 5],
      ['OVA', 2],
      ['Movie', 1],
      ['Web', 4],
      ['Other', 8],
    ]);
  });

  it('honours each hide flag, and folds Continue Watching into Next Up when combined', () => {
    expect(visibleWidgets(DEFAULT_DASHBOARD_SETTINGS)).toHaveLength(11);
    const hidden = visibleWidgets({ ...DEFAULT_DASHBOARD_SETTINGS, hideQueueProcessor: true, hideMediaType: true }).map((w) => w.id);
    expect(hidden).not.toContain('queueProcessor');
    expect(hidden).not.toContain('collectionTypeBreakdown');
    expect(hidden).toHaveLength(9);
    expect(visibleWidgets({ ...DEFAULT_DASHBOARD_SETTINGS, hideShokoNews: true }).map((w) => w.id)).not.toContain('shokoNews');
    const combined = visibleWidgets({ ...DEFAULT_DASHBOARD_SETTINGS, combineContinueWatching: true }).map((w) => w.id);
    expect(combined).not.toContain('continueWatching');
    expect(combined).toContain('nextUp');
  });

  it('toasts the server line when an action answers with one', () => {
    const entry = ACTION_CATALOGUE.find((a) => a.Function === 'RunImport')!;
    expect(actionToast(entry, undefined)).toBe('Running action "Run Import"');
    expect(actionToast(entry, 'Saved 3 AddToMyList Commands')).toBe('Saved 3 AddToMyList Commands');
  });

  it('lists every contract tab and flags the one-way actions', () => {
    expect(new Set(ACTION_CATALOGUE.map((a) => a.Group))).toEqual(new Set(['Import', 'AniDB', 'TMDB', 'Shoko', 'Images', 'Trakt', 'Plex']));
    expect(ACTION_CATALOGUE.filter((a) => a.Destructive).map((a) => a.Function)).toContain('SyncMyList');
    expect(ACTION_CATALOGUE.filter((a) => a.Destructive).map((a) => a.Function)).toContain('SendWatchStatesToTrakt');
  });
});
