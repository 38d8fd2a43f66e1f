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

export const STEMMERS: Record<PhraseLanguage, (word: string) => string> = {
  en: stemmer,
  es: stemSpanish,
  fr: stemFrench,
  de: stemGerman,
  pt: stemPortuguese,
  it: stemItalian,
};
