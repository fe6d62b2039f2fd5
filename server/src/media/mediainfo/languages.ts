/** ISO 639 codes MediaInfo reports → Shoko's TitleLanguage name and the 3-letter code. */
const LANGUAGES: Array<[two: string, three: string, name: string]> = [
  ['ja', 'jpn', 'Japanese'], ['en', 'eng', 'English'], ['zh', 'chi', 'Chinese'], ['ko', 'kor', 'Korean'], ['fr', 'fre', 'French'],
  ['de', 'ger', 'German'], ['es', 'spa', 'Spanish'], ['it', 'ita', 'Italian'], ['pt', 'por', 'Portuguese'], ['ru', 'rus', 'Russian'],
  ['pl', 'pol', 'Polish'], ['nl', 'dut', 'Dutch'], ['sv', 'swe', 'Swedish'], ['no', 'nor', 'Norwegian'], ['da', 'dan', 'Danish'],
  ['fi', 'fin', 'Finnish'], ['cs', 'cze', 'Czech'], ['hu', 'hun', 'Hungarian'], ['tr', 'tur', 'Turkish'], ['ar', 'ara', 'Arabic'],
  ['he', 'heb', 'Hebrew'], ['th', 'tha', 'Thai'], ['vi', 'vie', 'Vietnamese'], ['id', 'ind', 'Indonesian'], ['ms', 'may', 'Malaysian'],
  ['uk', 'ukr', 'Ukrainian'], ['el', 'gre', 'Greek'], ['ro', 'rum', 'Romanian'], ['bg', 'bul', 'Bulgarian'], ['hi', 'hin', 'Hindi'],
];

const BY_CODE = new Map<string, { three: string; name: string }>();
for (const [two, three, name] of LANGUAGES) {
  BY_CODE.set(two, { three, name });
  BY_CODE.set(three, { three, name });
}
// Bibliographic and terminological 3-letter codes both occur in containers.
for (const [alias, two] of [['zho', 'zh'], ['fra', 'fr'], ['deu', 'de'], ['nld', 'nl'], ['ces', 'cs'], ['ell', 'el'], ['ron', 'ro'], ['msa', 'ms']]) {
  BY_CODE.set(alias, BY_CODE.get(two)!);
}

export function describeLanguage(code: string | undefined): { Language: string; LanguageCode: string | null } {
  if (!code) return { Language: 'Unknown', LanguageCode: null };
  const base = code.toLowerCase().split(/[-_]/)[0];
  const known = BY_CODE.get(base);
  return known ? { Language: known.name, LanguageCode: known.three } : { Language: 'Unknown', LanguageCode: base.length === 3 ? base : null };
}
