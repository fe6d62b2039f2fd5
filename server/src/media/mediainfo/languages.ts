/**
 * Language tags found in media files (ISO 639-1, ISO 639-2 bibliographic and terminological codes, BCP 47 region
 * variants, English names) → Shoko's TitleLanguage enum name plus an ISO 639-2/B code for `LanguageCode`.
 */

/** TitleLanguage name, ISO 639-1, ISO 639-2/B, then any other codes that mean the same language. */
const LANGUAGES: ReadonlyArray<readonly [name: string, iso1: string, iso2: string, ...aliases: string[]]> = [
  ['English', 'en', 'eng'],
  ['Japanese', 'ja', 'jpn'],
  ['Afrikaans', 'af', 'afr'],
  ['Arabic', 'ar', 'ara'],
  ['Bulgarian', 'bg', 'bul'],
  ['Czech', 'cs', 'cze', 'ces'],
  ['Danish', 'da', 'dan'],
  ['German', 'de', 'ger', 'deu'],
  ['Greek', 'el', 'gre', 'ell', 'gr'],
  ['Spanish', 'es', 'spa'],
  ['Estonian', 'et', 'est'],
  ['Finnish', 'fi', 'fin'],
  ['French', 'fr', 'fre', 'fra'],
  ['Galician', 'gl', 'glg'],
  ['Hebrew', 'he', 'heb', 'iw'],
  ['Hungarian', 'hu', 'hun'],
  ['Italian', 'it', 'ita'],
  ['Korean', 'ko', 'kor'],
  ['Lithuanian', 'lt', 'lit'],
  ['Mongolian', 'mn', 'mon'],
  ['Malaysian', 'ms', 'may', 'msa'],
  ['Dutch', 'nl', 'dut', 'nld'],
  ['Norwegian', 'no', 'nor', 'nb', 'nob', 'nn', 'nno'],
  ['Polish', 'pl', 'pol'],
  ['Portuguese', 'pt', 'por'],
  ['Romanian', 'ro', 'rum', 'ron'],
  ['Russian', 'ru', 'rus'],
  ['Slovak', 'sk', 'slo', 'slk'],
  ['Slovenian', 'sl', 'slv'],
  ['Serbian', 'sr', 'srp'],
  ['Swedish', 'sv', 'swe'],
  ['Thai', 'th', 'tha'],
  ['Turkish', 'tr', 'tur'],
  ['Ukrainian', 'uk', 'ukr'],
  ['Vietnamese', 'vi', 'vie'],
  ['Chinese', 'zh', 'chi', 'zho'],
  ['Latin', 'la', 'lat'],
  ['Albanian', 'sq', 'alb', 'sqi'],
  ['Basque', 'eu', 'baq', 'eus'],
  ['Bengali', 'bn', 'ben'],
  ['Bosnian', 'bs', 'bos'],
  ['Amharic', 'am', 'amh'],
  ['Armenian', 'hy', 'arm', 'hye'],
  ['Azerbaijani', 'az', 'aze'],
  ['Belarusian', 'be', 'bel'],
  ['Catalan', 'ca', 'cat'],
  ['Chichewa', 'ny', 'nya'],
  ['Corsican', 'co', 'cos'],
  ['Croatian', 'hr', 'hrv'],
  ['Divehi', 'dv', 'div'],
  ['Esperanto', 'eo', 'epo'],
  ['Fijian', 'fj', 'fij'],
  ['Georgian', 'ka', 'geo', 'kat'],
  ['Gujarati', 'gu', 'guj'],
  ['HaitianCreole', 'ht', 'hat'],
  ['Hausa', 'ha', 'hau'],
  ['Icelandic', 'is', 'ice', 'isl'],
  ['Igbo', 'ig', 'ibo'],
  ['Indonesian', 'id', 'ind'],
  ['Irish', 'ga', 'gle'],
  ['Javanese', 'jv', 'jav'],
  ['Kannada', 'kn', 'kan'],
  ['Kazakh', 'kk', 'kaz'],
  ['Khmer', 'km', 'khm'],
  ['Kurdish', 'ku', 'kur'],
  ['Kyrgyz', 'ky', 'kir'],
  ['Lao', 'lo', 'lao'],
  ['Latvian', 'lv', 'lav'],
  ['Luxembourgish', 'lb', 'ltz'],
  ['Macedonian', 'mk', 'mac', 'mkd'],
  ['Malagasy', 'mg', 'mlg'],
  ['Malayalam', 'ml', 'mal'],
  ['Maltese', 'mt', 'mlt'],
  ['Maori', 'mi', 'mao', 'mri'],
  ['Marathi', 'mr', 'mar'],
  ['MyanmarBurmese', 'my', 'bur', 'mya'],
  ['Nepali', 'ne', 'nep'],
  ['Oriya', 'or', 'ori'],
  ['Pashto', 'ps', 'pus'],
  ['Persian', 'fa', 'per', 'fas'],
  ['Punjabi', 'pa', 'pan'],
  ['Quechua', 'qu', 'que'],
  ['Samoan', 'sm', 'smo'],
  ['ScotsGaelic', 'gd', 'gla'],
  ['Sesotho', 'st', 'sot'],
  ['Shona', 'sn', 'sna'],
  ['Sindhi', 'sd', 'snd'],
  ['Sinhala', 'si', 'sin'],
  ['Somali', 'so', 'som'],
  ['Swahili', 'sw', 'swa'],
  ['Tajik', 'tg', 'tgk'],
  ['Tamil', 'ta', 'tam'],
  ['Tatar', 'tt', 'tat'],
  ['Telugu', 'te', 'tel'],
  ['Turkmen', 'tk', 'tuk'],
  ['Uighur', 'ug', 'uig'],
  ['Uzbek', 'uz', 'uzb'],
  ['Welsh', 'cy', 'wel', 'cym'],
  ['Xhosa', 'xh', 'xho'],
  ['Yiddish', 'yi', 'yid'],
  ['Yoruba', 'yo', 'yor'],
  ['Zulu', 'zu', 'zul'],
  ['Hindi', 'hi', 'hin'],
  ['Filipino', 'tl', 'tgl', 'fil'],
  ['Urdu', 'ur', 'urd'],
];

/** Tags whose TitleLanguage is more specific than their base language. */
const VARIANTS: ReadonlyArray<readonly [name: string, base: string, ...tags: string[]]> = [
  ['EnglishAmerican', 'en', 'en-us'],
  ['EnglishBritish', 'en', 'en-gb'],
  ['EnglishAustralian', 'en', 'en-au'],
  ['EnglishCanadian', 'en', 'en-ca'],
  ['EnglishIndia', 'en', 'en-in'],
  ['EnglishNewZealand', 'en', 'en-nz'],
  ['BrazilianPortuguese', 'pt', 'pt-br'],
  ['FrenchCanadian', 'fr', 'fr-ca'],
  ['ChineseSimplified', 'zh', 'zh-hans', 'zh-cn', 'zh-sg'],
  ['ChineseTraditional', 'zh', 'zh-hant', 'zh-tw', 'zh-hk'],
  ['Romaji', 'ja', 'x-jat'],
  ['Pinyin', 'zh', 'x-zht'],
  ['KoreanTranscription', 'ko', 'x-kot'],
  ['ThaiTranscription', 'th', 'x-tht'],
];

export interface LanguageInfo {
  /** TitleLanguage enum name. */
  name: string;
  /** ISO 639-2/B. */
  code: string;
}

const BY_TAG = new Map<string, LanguageInfo>();
for (const [name, iso1, iso2, ...aliases] of LANGUAGES) {
  const info = { name, code: iso2 };
  for (const tag of [iso1, iso2, ...aliases, name.toLowerCase()]) BY_TAG.set(tag, info);
}
for (const [name, base, ...tags] of VARIANTS) {
  const info = { name, code: BY_TAG.get(base)!.code };
  for (const tag of tags) BY_TAG.set(tag, info);
}

/** The language a tag names, or null when it names none we know. */
export function lookupLanguage(tag: string): LanguageInfo | null {
  const normalised = tag.trim().toLowerCase().replaceAll('_', '-');
  return BY_TAG.get(normalised) ?? BY_TAG.get(normalised.split('-')[0]) ?? null;
}

/**
 * `Language` / `LanguageCode` of a stream: both null when the stream carries no language; `Unknown` (keeping a
 * three-letter code as given) when it carries one we cannot name, e.g. `und`.
 */
export function streamLanguage(tag: string | null): { Language: string | null; LanguageCode: string | null } {
  if (!tag) return { Language: null, LanguageCode: null };
  const known = lookupLanguage(tag);
  if (known) return { Language: known.name, LanguageCode: known.code };
  const raw = tag.trim().toLowerCase();
  return { Language: 'Unknown', LanguageCode: /^[a-z]{3}$/.test(raw) ? raw : null };
}
