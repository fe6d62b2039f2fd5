import { describe, expect, it } from 'vitest';
import { collectionSettingsOf, DEFAULT_COLLECTION_SETTINGS } from './collectionSettings';

describe('collectionSettingsOf', () => {
  it('reads the collection section of the stored console settings over the defaults', () => {
    const document = { WebUI_Settings: JSON.stringify({ collection: { view: 'list', image: { showRandomPoster: true } } }) };
    const settings = collectionSettingsOf(document);
    expect(settings.view).toBe('list');
    expect(settings.image.showRandomPoster).toBe(true);
    expect(settings.image.useThumbnailFallback).toBe(DEFAULT_COLLECTION_SETTINGS.image.useThumbnailFallback);
  });

  it('gives the defaults without a document or with unreadable settings', () => {
    expect(collectionSettingsOf(undefined)).toEqual(DEFAULT_COLLECTION_SETTINGS);
    expect(collectionSettingsOf({ WebUI_Settings: 'not json' })).toEqual(DEFAULT_COLLECTION_SETTINGS);
  });
});
