/**
 * Each language's stemmer (Porter's for English, Snowball's for the other five): a text is stemmed
 * in one language throughout, the same for a question and the passages it is scored against.
 */
import { stemmer } from 'stemmer';
import { stemmer as stemGerman } from '@orama/stemmers/german';
import { stemmer as stemFrench } from '@orama/stemmers/french';
import { stemmer as stemItalian } from '@orama/stemmers/italian';
import { stemmer as stemPortuguese } from '@orama/stemmers/portuguese';
import { stemmer as stemSpanish } from '@orama/stemmers/spanish';
import type { PhraseLanguage } from './phrases.ts';

// Words Porter's algorithm folds onto another word of a different meaning that help centres use
// too: "business" (days) onto "busy", "international" (shipping) onto "internal" and "intern",
// "customs" onto "customers", "accountant" onto "account", "installment" onto "installed",
// "department" onto "depart", "suite" onto "suit"… (found among the vectors' 15,000 most frequent
// words: same stem, dissimilar vectors).
const ENGLISH_EXCEPTIONS = new Map<string, string>(
  Object.entries({
    business: 'business businesses',
    internation: 'international internationally',
    evening: 'evening evenings',
    news: 'news',
    general: 'general generally',
    generous: 'generous generously',
    university: 'university universities',
    community: 'community communities',
    experience: 'experience experiences experienced',
    animal: 'animal animals',
    organiz: 'organization organizations organisation organisations organize organized organise organised',
    marine: 'marine marines',
    customs: 'customs',
    important: 'important importantly importance',
    accountant: 'accountant accountants',
    installment: 'installment installments instalment instalments',
    tired: 'tired tiredness',
    department: 'department departments',
    conversation: 'conversation conversations',
    activity: 'activity activities',
    mechanic: 'mechanic mechanics',
    suite: 'suite suites',
    tentative: 'tentative tentatively',
  }).flatMap(([term, forms]) => forms.split(' ').map((form) => [form, term])),
);

/** Porter's stem of an English word, but for the few words it would confuse with another. */
export function englishStem(word: string): string {
  return ENGLISH_EXCEPTIONS.get(word) ?? stemmer(word);
}

export const STEMMERS: Record<PhraseLanguage, (word: string) => string> = {
  en: englishStem,
  es: stemSpanish,
  fr: stemFrench,
  de: stemGerman,
  pt: stemPortuguese,
  it: stemItalian,
};
