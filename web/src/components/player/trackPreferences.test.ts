import { describe, expect, it } from 'vitest';
import type { PlaybackAudioStream, PlaybackSubtitle } from '@shoko-ts/contract';
import { audioLabel, languageKey, nextSubtitle, pickAudio, pickSubtitle, subtitleLabel } from './trackPreferences';

const audio = (Index: number, Language: string | null, Default = false): PlaybackAudioStream => ({
  Index,
  Codec: 'aac',
  Channels: 2,
  Language,
  Title: null,
  Default,
  MimeCodec: 'mp4a.40.2',
});
const subtitle = (ID: string, Language: string | null, extra: Partial<PlaybackSubtitle> = {}): PlaybackSubtitle => ({
  ID,
  Kind: 'Embedded',
  Codec: 'ass',
  IsText: true,
  Format: 'ass',
  Language,
  Title: null,
  Default: false,
  Forced: false,
  Url: `/sub/${ID}`,
  ...extra,
});

const dualAudio = [audio(1, 'eng', true), audio(2, 'jpn')];
const subtitles = [subtitle('s-signs', 'eng', { Forced: true }), subtitle('s-full', 'eng'), subtitle('s-ger', 'ger', { Default: true })];

describe('picking tracks', () => {
  it('takes the first preferred audio language the file has, else its default track', () => {
    expect(pickAudio(dualAudio, ['jpn', 'eng'], null)).toBe(2);
    expect(pickAudio(dualAudio, ['fra'], null)).toBe(1);
    expect(pickAudio([], ['jpn'], null)).toBeNull();
  });

  it('lets the language remembered for the series win over the settings', () => {
    expect(pickAudio(dualAudio, ['jpn'], { audioLanguage: 'eng', subtitleLanguage: null })).toBe(1);
  });

  it('shows full subtitles in the preferred language, not the forced signs track', () => {
    expect(pickSubtitle(subtitles, ['eng'], 'jpn', null)).toBe('s-full');
  });

  it('shows only forced subtitles when the audio is already in the viewer’s language', () => {
    expect(pickSubtitle(subtitles, ['eng'], 'eng', null)).toBe('s-signs');
    expect(pickSubtitle([subtitle('s-full', 'eng')], ['eng'], 'eng', null)).toBeNull();
  });

  it('falls back to the file’s default subtitle when no preferred language has one', () => {
    expect(pickSubtitle(subtitles, ['spa'], 'jpn', null)).toBe('s-ger');
    expect(pickSubtitle(subtitles.slice(0, 2), ['spa'], 'jpn', null)).toBeNull();
  });

  it('shows the first full subtitle track when the settings name no language', () => {
    expect(pickSubtitle(subtitles.slice(0, 2), [], 'jpn', null)).toBe('s-full');
  });

  it('keeps subtitles off when that was the choice for the series', () => {
    expect(pickSubtitle(subtitles, ['eng'], 'jpn', { audioLanguage: 'jpn', subtitleLanguage: null })).toBeNull();
    expect(pickSubtitle(subtitles, ['eng'], 'jpn', { audioLanguage: 'jpn', subtitleLanguage: 'deu' })).toBe('s-ger');
  });

  it('treats both ISO 639-2 spellings of a language as one', () => {
    expect(languageKey('GER')).toBe('deu');
    expect(pickAudio([audio(1, 'eng', true), audio(2, 'fre')], ['fra'], null)).toBe(2);
  });

  it('cycles subtitles: each track in turn, then off', () => {
    expect(nextSubtitle(subtitles, null)).toBe('s-signs');
    expect(nextSubtitle(subtitles, 's-full')).toBe('s-ger');
    expect(nextSubtitle(subtitles, 's-ger')).toBeNull();
  });
});

describe('track labels', () => {
  it('names the language once, with the track’s own title', () => {
    expect(audioLabel(audio(1, 'jpn'))).toBe('Japanese · AAC Stereo');
    expect(audioLabel({ ...audio(1, 'jpn'), Title: 'Japanese (440 Hz)' })).toBe('Japanese (440 Hz) · AAC Stereo');
    expect(subtitleLabel(subtitle('s', 'eng', { Title: 'Signs', Forced: true, Kind: 'External' }))).toBe(
      'English · Signs · Forced · External',
    );
    expect(subtitleLabel(subtitle('s', null, { IsText: false }))).toBe('Unknown · Burnt in');
  });
});
