/**
 * Choosing the sentences that answer a question: term coverage weighted by rarity among the
 * candidates, proximity, heading and title matches, retrieval rank and the kind of answer the
 * question asks for; then 1–3 sentences without near-duplicates.
 */
import type { RetrievedPassage } from '../answers.types.ts';
import { dot, englishWordVectors } from '../semantic/word-vectors.ts';
import { wordAssociations } from './associations.ts';
import { splitUnits } from './sentences.ts';
import { contentTerms, termOf } from './text.ts';
import { PHRASE_LANGUAGES, type PhraseLanguage } from './phrases.ts';
import { RANKING_WEIGHTS } from './ranking-model.ts';

/** The question as weighted terms; `focus` holds the terms of the new message alone. */
export interface QueryModel {
  weights: Map<string, number>;
  focus: Set<string>;
  /** The new message's terms in order (for phrase matches). */
  sequence: string[];
  /** The raw question, read for the kind of answer it expects. */
  question: string;
  /** The language its terms were stemmed in; the passages are stemmed in it too (English when absent). */
  language?: PhraseLanguage;
  /** The language the visitor writes in, when it is clear. */
  written?: PhraseLanguage;
}

/** A candidate sentence with its scores. */
export interface ScoredUnit {
  text: string;
  listItem: boolean;
  passage: RetrievedPassage;
  rank: number;
  index: number;
  /** For a later sentence of a list item, the index of the item's first sentence; else its own index. */
  itemStart: number;
  /** The heading or bold FAQ question above it inside its passage ('' when none). */
  localHeading: string;
  /** Its list marker as written ("1.", "-"), '' when it is none or a table row. */
  marker: string;
  terms: Set<string>;
  /**
   * Share of the question's weight the unit answers (its heading and title count half), or of the
   * new message's own weight when that is higher.
   */
  coverage: number;
  /**
   * Like `coverage`, but a question word missing from the unit counts in part when the unit holds a
   * word near it in meaning ("weekend" for "saturday"), by their similarity.
   */
  softCoverage: number;
  /** Share of the question's weight found anywhere in the unit's passage (its headings included), near words counting in part. */
  passageCoverage: number;
  /** How many of the question's topic words (light words aside) the unit or its headings hold. */
  topicMatches: number;
  /** Whether the unit holds the kind of value the question asks for (a price, a duration); null when it asks for none. */
  answersKind: boolean | null;
  /** What the score weighs, in the order of `RANKING_FEATURES`. */
  features: number[];
  score: number;
}

/** The scored units, best first, and what the whole retrieved knowledge says about the question. */
export interface Scoring {
  units: ScoredUnit[];
  /** Share of the question's weight that no retrieved passage holds, not even as a near word. */
  absent: number;
  /** Number of the question's topic words (light words aside). */
  topicWords: number;
}

/**
 * What a sentence's score weighs, in order; the weights (`ranking-model.ts`) are fitted on the
 * evaluation's development part (`npm run eval -- --fit`).
 */
export const RANKING_FEATURES = [
  'softCoverage', // share of the question's weight in the sentence, near words counting in part
  'proximity', // how tightly the matched words sit together
  'retrievalRank', // 1 / (1 + rank of the passage): the fused retrieval knows the passage as a whole
  'headingShare', // share of the question's weight found only in headings and the source title
  'phrasePairs', // share of the question's adjacent word pairs the sentence holds
  'kindFound', // the question asks for a kind of value (a price, a duration) and the sentence has one
  'kindMissing', // it asks for one and the sentence has none
  'lengthPenalty', // very short or very long sentences
  'exactCoverage', // share of the question's weight in the sentence, exact words only
  'passageCoverage', // share of the question's weight anywhere in the sentence's passage
  'topicShare', // share of the question's topic words the sentence or its headings hold
  'listItem', // a list item or table row
] as const;

const dotWeights = (weights: readonly number[], features: number[]) => features.reduce((sum, x, i) => sum + x * (weights[i] ?? 0), 0);

/** Query terms weighing at least this are topic words (light words and earlier turns' light words are not). */
const TOPIC_WEIGHT = 0.5;

// A term found only in the unit's heading or source title counts for this share of a match.
const CONTEXT_SHARE = 0.7;
// Two words at least this similar (cosine of their vectors) are near in meaning; a near word counts
// for its similarity times this share of a match. Choosing among sentences reads nearer words than
// the answer decision does (`softCoverage`, `passageCoverage`, `absent`): a looser match helps pick
// the sentence a paraphrase asks for, but would also let an unanswerable question look answered.
const NEAR_SIMILARITY = 0.55;
const DECISION_NEAR_SIMILARITY = 0.6;
const NEAR_SHARE = 0.8;

/** One unit of a retrieved passage, as scoring sees it. */
interface Candidate {
  unit: AnalysedUnit;
  passage: RetrievedPassage;
  rank: number;
}

/** A passage's units with their terms: the part of a candidate that depends only on the text. */
interface AnalysedUnit {
  text: string;
  listItem: boolean;
  index: number;
  itemStart: number;
  localHeading: string;
  marker: string;
  order: string[];
  terms: Set<string>;
  context: Set<string>;
  pairs: Set<string>;
}

// Tokenising and stemming a passage costs more than retrieving it; popular passages are asked
// about again and again, so their analysis is kept (keyed by the text itself: it is all it reads).
const analysed = new Map<string, AnalysedUnit[]>();
const ANALYSED_LIMIT = 20_000;

function analysePassage(passage: RetrievedPassage, language: PhraseLanguage): AnalysedUnit[] {
  const key = `${language}\u0000${passage.sourceTitle}\u0000${passage.heading}\u0000${passage.text}`;
  let units = analysed.get(key);
  if (units) return units;
  const outer = new Set([...contentTerms(passage.heading, language), ...contentTerms(passage.sourceTitle, language)]);
  units = [];
  splitUnits(passage.text).forEach((unit, index) => {
    const order = contentTerms(unit.text, language);
    if (order.length === 0) return;
    const context = new Set([...outer, ...contentTerms(unit.localHeading, language)]);
    units!.push({ text: unit.text, listItem: unit.listItem, index, itemStart: index - unit.itemOffset, localHeading: unit.localHeading, marker: unit.marker, order, terms: new Set(order), context, pairs: pairsOf(order) });
  });
  if (analysed.size >= ANALYSED_LIMIT) analysed.clear();
  analysed.set(key, units);
  return units;
}

/** Every unit of the passages, stemmed in `language` (their analyses are shared and read-only). */
export function candidatesOf(passages: RetrievedPassage[], language: PhraseLanguage = 'en'): Candidate[] {
  const out: Candidate[] = [];
  passages.forEach((passage, rank) => {
    for (const unit of analysePassage(passage, language)) out.push({ unit, passage, rank });
  });
  return out;
}

/** Every term the passages' units (with their headings) hold, with how many units hold it, in `language`'s stemming. */
export function knowledgeTerms(passages: RetrievedPassage[], language: PhraseLanguage = 'en'): Map<string, number> {
  const out = new Map<string, number>();
  for (const { unit } of candidatesOf(passages, language)) {
    for (const term of new Set([...unit.terms, ...unit.context])) out.set(term, (out.get(term) ?? 0) + 1);
  }
  return out;
}

/** Scores every candidate against the query (best first). */
export function scoreUnits(query: QueryModel, passages: RetrievedPassage[], weights: readonly number[] = RANKING_WEIGHTS): Scoring {
  const candidates = candidatesOf(passages, query.language);
  const idf = rarity(query, candidates);
  const kind = expectedKind(query.question);
  // The query's terms as parallel arrays: the loop below runs for every term of every candidate.
  const terms = [...query.weights.keys()];
  const base = terms.map((term) => query.weights.get(term)! * idf.get(term)!);
  const focus = terms.map((term) => query.focus.has(term));
  const topic = terms.map((term) => query.weights.get(term)! >= TOPIC_WEIGHT);
  const asked = terms.map((term) => kind !== null && kind.asks.has(term));
  const near = nearWords(terms, candidates);
  let total = 0;
  let focusTotal = 0;
  for (let i = 0; i < terms.length; i++) {
    total += base[i]!;
    if (focus[i]) focusTotal += base[i]!;
  }
  const topicWords = topic.filter(Boolean).length;
  if (total === 0) return { units: [], absent: 1, topicWords };

  // Per passage: each term's best share over the passage's units, for passage coverage (the
  // ranking's, then the decision's stricter one).
  const passageShares = new Map<RetrievedPassage, { soft: number[]; strict: number[] }>();
  const shareIn = (unit: AnalysedUnit, i: number, answersKind: boolean): { exact: number; soft: number; strict: number } => {
    const term = terms[i]!;
    const inHeadings = unit.context.has(term);
    const exact = unit.terms.has(term) || (answersKind && asked[i]) ? 1 : inHeadings ? CONTEXT_SHARE : 0;
    if (exact === 1) return { exact, soft: 1, strict: 1 };
    let soft = exact;
    let strict = exact;
    for (const [word, similarity] of near[i]!) {
      const share = unit.terms.has(word) ? similarity * NEAR_SHARE : unit.context.has(word) ? similarity * NEAR_SHARE * CONTEXT_SHARE : 0;
      if (share > soft) soft = share;
      if (share > strict && similarity >= DECISION_NEAR_SIMILARITY) strict = share;
    }
    return { exact, soft, strict };
  };

  const pairs = pairsOf(query.sequence);
  const scored = candidates.map(({ unit, passage, rank }): ScoredUnit => {
    // A sentence holding the kind of value asked for ("$19", "3 days") answers the words asking for it.
    const answersKind = kind !== null && kind.pattern.test(unit.text);
    let matched = 0;
    let softMatched = 0;
    let strictMatched = 0;
    let focusMatched = 0;
    let inContext = 0;
    let topicMatches = 0;
    let shares = passageShares.get(passage);
    if (!shares) passageShares.set(passage, (shares = { soft: terms.map(() => 0), strict: terms.map(() => 0) }));
    for (let i = 0; i < terms.length; i++) {
      const { exact, soft, strict } = shareIn(unit, i, answersKind);
      if (soft > shares.soft[i]!) shares.soft[i] = soft;
      if (strict > shares.strict[i]!) shares.strict[i] = strict;
      if (soft === 0) continue;
      softMatched += base[i]! * soft;
      strictMatched += base[i]! * strict;
      if (exact === 0) continue;
      if (topic[i]) topicMatches++;
      matched += base[i]! * exact;
      if (focus[i]) focusMatched += base[i]! * exact;
      if (exact < 1) inContext += base[i]!;
    }
    const overall = Math.min(1, matched / total);
    const softOverall = Math.min(1, softMatched / total);
    const strictOverall = Math.min(1, strictMatched / total);
    // A follow-up may be answered by its own words alone, without the turn it follows.
    const coverage = focusTotal > 0 ? Math.max(overall, Math.min(1, focusMatched / focusTotal)) : overall;
    const features: number[] = [
      softOverall,
      proximity(unit.order, query.weights),
      1 / (1 + rank),
      inContext / total,
      pairs.size ? shared(pairs, unit.pairs) / pairs.size : 0,
      kind !== null && answersKind ? 1 : 0,
      kind !== null && !answersKind ? 1 : 0,
      lengthPenalty(unit.order.length),
      overall,
      0, // passage coverage, filled in below
      topicWords === 0 ? 1 : topicMatches / topicWords,
      unit.listItem ? 1 : 0,
    ];
    return {
      text: unit.text,
      listItem: unit.listItem,
      passage,
      rank,
      index: unit.index,
      itemStart: unit.itemStart,
      localHeading: unit.localHeading,
      marker: unit.marker,
      terms: unit.terms,
      coverage,
      softCoverage: Math.max(coverage, strictOverall),
      passageCoverage: 0,
      topicMatches,
      answersKind: kind === null ? null : answersKind,
      features,
      score: 0,
    };
  });
  let found = 0;
  const anywhere = terms.map(() => 0);
  for (const shares of passageShares.values()) shares.strict.forEach((share, i) => (anywhere[i] = Math.max(anywhere[i]!, share)));
  for (let i = 0; i < terms.length; i++) found += base[i]! * anywhere[i]!;
  for (const unit of scored) {
    const shares = passageShares.get(unit.passage)!;
    let soft = 0;
    let strict = 0;
    for (let i = 0; i < terms.length; i++) {
      soft += base[i]! * shares.soft[i]!;
      strict += base[i]! * shares.strict[i]!;
    }
    unit.passageCoverage = Math.min(1, strict / total);
    unit.features[9] = Math.min(1, soft / total);
    unit.score = dotWeights(weights, unit.features) - (ASKS_ITSELF.test(unit.text) ? ASKS_ITSELF_PENALTY : 0);
  }
  const units = scored.sort((a, b) => b.score - a.score || a.rank - b.rank || a.index - b.index);
  return { units, absent: Math.max(0, 1 - found / total), topicWords };
}

/** For each query term, the candidates' words near it in meaning, with their similarity. */
function nearWords(terms: string[], candidates: Candidate[]): Map<string, number>[] {
  const vectors = englishWordVectors();
  const asked = terms.map((term) => vectors.vectorOf(term));
  const out = terms.map(() => new Map<string, number>());
  // A term English lacks (a word of another language asked of English knowledge) may still be its
  // cognate: "tropicale" and "tropical", "exportar" and "export".
  const foreign = terms.map((term, i) => !asked[i] && term.length >= COGNATE_PREFIX && !/\d/.test(term));
  if (!asked.some(Boolean) && !foreign.some(Boolean)) return out;
  const associations = wordAssociations();
  const associated = terms.map((term) => associations.get(term));
  const seen = new Set<string>(terms);
  const consider = (word: string) => {
    if (seen.has(word)) return;
    seen.add(word);
    terms.forEach((term, i) => {
      if (foreign[i] && isCognate(term, word)) out[i]!.set(word, COGNATE_SIMILARITY);
    });
    // A word help centres use for what visitors call the question's word ("refund" for "money").
    associated.forEach((row, i) => {
      const strength = row?.get(word);
      if (strength !== undefined) out[i]!.set(word, ASSOCIATION_SIMILARITY + (1 - ASSOCIATION_SIMILARITY) * strength);
    });
    const vector = vectors.vectorOf(word);
    if (!vector) return;
    asked.forEach((q, i) => {
      if (!q) return;
      const similarity = dot(q, vector);
      if (similarity >= NEAR_SIMILARITY && similarity > (out[i]!.get(word) ?? 0)) out[i]!.set(word, similarity);
    });
  };
  for (const { unit } of candidates) {
    for (const t of unit.terms) consider(t);
    for (const t of unit.context) consider(t);
  }
  return out;
}

// Cognates share their first letters: at least this many, and most of the shorter word.
const COGNATE_PREFIX = 5;
const COGNATE_SHARE = 0.8;
const COGNATE_SIMILARITY = 0.7;
// An associated word ("refund" for "money") counts as near as two words of this similarity, more the
// stronger the association: as near as the decision reads (0.6), so that the association also helps
// decide that the knowledge answers.
const ASSOCIATION_SIMILARITY = 0.6;

function isCognate(a: string, b: string): boolean {
  const shorter = Math.min(a.length, b.length);
  if (shorter < COGNATE_PREFIX) return false;
  let common = 0;
  while (common < shorter && a[common] === b[common]) common++;
  return common >= COGNATE_PREFIX && common >= COGNATE_SHARE * shorter;
}

/** IDF of each query term over the candidate units; a term no candidate has weighs most. */
function rarity(query: QueryModel, candidates: Candidate[]): Map<string, number> {
  const n = candidates.length;
  const idf = new Map<string, number>();
  for (const term of query.weights.keys()) {
    let df = 0;
    for (const { unit } of candidates) if (unit.terms.has(term) || unit.context.has(term)) df++;
    idf.set(term, Math.log((n + 1) / (df + 0.5)) + 0.2);
  }
  return idf;
}

/** Adjacent term pairs, order ignored: "return shipping" matches "shipping returns". */
function pairsOf(order: string[]): Set<string> {
  const out = new Set<string>();
  for (let i = 1; i < order.length; i++) {
    const [a, b] = [order[i - 1]!, order[i]!];
    if (a !== b) out.add(a < b ? `${a} ${b}` : `${b} ${a}`);
  }
  return out;
}

function shared(a: Set<string>, b: Set<string>): number {
  let n = 0;
  for (const x of a) if (b.has(x)) n++;
  return n;
}

/** How tightly the matched terms sit together: 1 when adjacent, falling with the gap. */
function proximity(order: string[], weights: Map<string, number>): number {
  const positions: number[] = [];
  const seen = new Set<string>();
  order.forEach((term, i) => {
    if (weights.has(term) && !seen.has(term)) {
      seen.add(term);
      positions.push(i);
    }
  });
  if (positions.length < 2) return positions.length ? 0.3 : 0;
  const span = positions[positions.length - 1]! - positions[0]! + 1;
  return positions.length / span;
}

// A sentence that is itself a question ("Want to bring a friend along?") rarely answers one; a
// question alone in bold ("**Where do I park?**") is not one of these: it titles the answer after it.
// The penalty (in log-odds) is set by hand: refitting the whole ranking with it as a feature lost
// two development questions, the listwise fit on 120 questions being noisy.
const ASKS_ITSELF = /\?\s*$/;
const ASKS_ITSELF_PENALTY = 2;

function lengthPenalty(terms: number): number {
  if (terms < 3) return 0.08;
  if (terms > 35) return Math.min(0.15, (terms - 35) * 0.005);
  return 0;
}

// Values, in the six languages: durations, amounts, numbers, times, places, people, reasons, contacts.
const DURATION = /\d+\s*(?:(?:-|–|to|or|a|à|bis|e|o|ou)\s*\d+\s*)?-?(?:business\s+|working\s+|calendar\s+)?(?:minutes?|minutos?|minuten?|minuti|hours?|horas?|heures?|stunden?|ore|days?|d[ií]as|jours?|tagen?|werktagen?|giorni|weeks?|semanas?|semaines?|wochen?|settimane?|months?|meses|mois|monate?n?|mesi|years?|a[ñn]os|ans|jahren?|anni|cycles?)\b|\b(?:same|next)\s+(?:business\s+)?day\b|\b(?:lifetime|immediately|at once|straight away|never expire|sofort|imm[ée]diatement|inmediatamente|imediatamente|subito)/i;
const MONEY = /[$€£¥]\s?\d|\d\s?[$€£¥]|\d\s?(?:usd|eur|gbp|chf|dollars?|euros?)\b|\d+\s?%|\b(?:free|gratis|kostenlos|gratuit[eo]?s?|gratuita)\b|\b(?:no (?:extra |additional )?(?:charge|cost|fee)s?|at no (?:extra )?cost|included|sin (?:coste|costo|cargo)|sans frais|inclus|senza cost[io]|incluso|ohne (?:aufpreis|kosten|geb[üu]hr)|inklusive|sem custos?|inclu[íi]d[oa])(?![\p{L}])/iu;
const NUMBER = /\d|\b(?:two|three|four|five|six|seven|eight|nine|ten|twelve|twenty|hundred)\b/i;
// A clock time, a weekday or a month: what opening hours are given in.
const CLOCK_OR_DAY = /\b\d{1,2}(?::\d{2})?\s*(?:a\.m\.|p\.m\.|am|pm|uhr)\b|\b\d{1,2}(?::|\s?h\s?)\d{2}\b|\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b|\b(?:montags?|dienstags?|mittwochs?|donnerstags?|freitags?|samstags?|sonntags?|lunes|martes|mi[ée]rcoles|jueves|viernes|s[áa]bados?|domingos?|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|segunda|ter[çc]a|quarta|quinta|sexta|luned[iì]|marted[iì]|mercoled[iì]|gioved[iì]|venerd[iì]|sabato|domenica)\b|\b(?:january|february|march|april|may|june|july|august|september|october|november|december)\b/i;
// Any of those, or a time relative to something ("within 30 days", "after delivery").
const TIME = new RegExp(`${CLOCK_OR_DAY.source}|\\b(?:before|after|when|once|within|vor|nach|avant|apr[èe]s|antes|despu[ée]s|depois|prima|dopo|entro)\\b`, 'i');
const PLACE = />|\b(?:at|in|on|under|to|im|em|nel|nella|alla|au)\s+(?:the\s+)?\p{Lu}|\b(?:avenue|street|road|way|page|menu|settings|account|address|calle|avenida|rue|stra(?:ß|ss)e|str\.|platz|rua|via|viale|piazza|largo)\b/iu;
// Two capitalised words, unless the second names a place or an organisation ("Old Mill", "Quay Street").
const PERSON = /\p{Lu}\p{Ll}+\s+(?!(?:Street|St|Road|Rd|Avenue|Ave|Lane|Way|Drive|Square|Plaza|Place|Park|Falls|Heights|Hill|Hills|Mill|Bay|Beach|Valley|Village|City|Town|Center|Centre|Mall|Market|Station|Bridge|Tower|House|Hall|Club|Store|Shop|Studio|Gym|Hotel|Clinic|Labs?|Inc|Ltd|Plus|Pro|Premium|Basic|Standard|Express|Care|Support|Team|App|Rewards?|Card|Cards|Plan|Policy|Guarantee)\b)\p{Lu}\p{Ll}+/u;
// A day of the week, the weekend, or every day, in the six languages: what a question naming a day asks about.
const WEEKDAY = String.raw`(?<!\p{L})(?:(?:mon|tues|wednes|thurs|fri|satur|sun)days?|montags?|dienstags?|mittwochs?|donnerstags?|freitags?|samstags?|sonntags?|lunes|martes|mi[ée]rcoles|jueves|viernes|s[áa]bados?|domingos?|lundis?|mardis?|mercredis?|jeudis?|vendredis?|samedis?|dimanches?|(?:segunda|ter[çc]a|quarta|quinta|sexta)s?-feiras?|(?<=(?:à|às|na|nas|aos)\s)(?:segunda|ter[çc]a|quarta|quinta|sexta)s?|luned[iì]|marted[iì]|mercoled[iì]|gioved[iì]|venerd[iì]|sabato|domenica|week-?ends?|wochenendes?|fine? de semana|fim de semana|fine ?settimana)(?!\p{L})`;
const NAMES_A_DAY = new RegExp(WEEKDAY, 'iu');
const DAY = new RegExp(`${WEEKDAY}|(?<!\\p{L})(?:every ?day|daily|7 days a week|seven days a week|todos los d[ií]as|tous les jours|t[äa]glich|jeden tag|todos os dias|tutti i giorni|ogni giorno)(?!\\p{L})`, 'iu');
const REASON = /\b(?:because|reasons?|due to|caused by|as a result|porque|parce que|weil|perch[ée]|poich[ée])\b/i;
const CONTACT = /@|\+?\d[\d\s().-]{7,}\d|https?:\/\//;
// A measured size, weight, volume, distance, temperature or file size: "104 cm", "1.2 kg", "34°F", "650 mètres", "15 MB".
const MEASURE = /\d\s*(?:°\s*[cf]?|(?:kb|mb|gb|tb|bytes?|kilobytes?|megabytes?|gigabytes?|mo|go|px|pixels?|mm|cm|m|km|inch(?:es)?|ft|feet|foot|yards?|miles?|meters?|metres?|m[eè]tres?|metros?|metri|kilometers?|kilometres?|kilom[eè]tres?|kilometros?|g|kg|grams?|grammes?|gramm|gramos?|grammi|lbs?|pounds?|oz|ounces?|l|liters?|litres?|litros?|litri|ml|degrees?|grad|grados?|degr[ée]s?|gradi|graus)\b)|\d\s*[x×]\s*\d/i;
// How often: "3 times", "once a month", "weekly", "every day".
const FREQUENCY = /\b(?:once|twice|\d+\s*(?:times?|veces|fois|mal|vezes|volte))\b|\b(?:per|a|an|each|every|por|par|pro|al|alla|à)\s+(?:day|week|month|year|visit|d[ií]a|semana|mes|año|jour|semaine|mois|an|tag|woche|monat|jahr|dia|m[eê]s|ano|giorno|settimana|mese|anno)\b|\b(?:daily|weekly|monthly|yearly|annually|every|cada|chaque|jeden|jede|jedes|t[äa]glich|w[öo]chentlich|monatlich|ogni|todos os|tous les|todos los)\b/i;

/** The kind of value a question asks for, and the query terms such a value answers. */
export interface AnswerKind {
  name: string;
  pattern: RegExp;
  asks: Set<string>;
}

// The asking words' terms in every language's stemming: the question's language decides which apply.
const kindOf = (name: string, pattern: RegExp, asks: string): AnswerKind => ({ name, pattern, asks: new Set(asks.split(' ').flatMap((word) => PHRASE_LANGUAGES.map((language) => termOf(word, language)))) });
// `asks`: the question words a value of the kind answers, in the six languages.
const TIME_WORDS = 'time date day hour hora horario heure horaire uhr öffnungszeiten horário ora orari';
const KINDS = {
  duration: kindOf('duration', DURATION, 'time length duration period day week month year hour minute tiempo duración temps durée délai zeit dauer tempo duração durata'),
  money: kindOf('money', MONEY, 'cost amount precio coste prix coût preis kosten preço custo prezzo costo'),
  number: kindOf('number', NUMBER, 'number amount minimum maximum número nombre anzahl numero máximo mínimo maximal massimo minimo edad âge alter idade età'),
  time: kindOf('time', TIME, TIME_WORDS),
  hours: kindOf('hours', CLOCK_OR_DAY, TIME_WORDS),
  contact: kindOf('contact', CONTACT, 'number phone email address contact teléfono téléphone telefon telefone telefono'),
  person: kindOf('person', PERSON, 'name person nombre nom name nome'),
  place: kindOf('place', PLACE, 'place location address dirección adresse endereço indirizzo'),
  reason: kindOf('reason', REASON, 'reason cause razón raison grund razão motivo'),
  measure: kindOf('measure', MEASURE, 'size height width depth length weight temperature temp fahrenheit celsius degree distance tamaño altura ancho peso temperatura distancia taille hauteur largeur poids température größe höhe breite gewicht temperatur entfernung tamanho largura taglia altezza larghezza'),
  day: kindOf('day', DAY, 'time date day hour open hora horario heure horaire uhr öffnungszeiten horário ora orari'),
  frequency: kindOf('frequency', FREQUENCY, 'often frequency times frecuencia veces fréquence fois häufigkeit frequência vezes frequenza volte'),
};

/** The kind of answer the question asks for, or null when it asks for none in particular. */
export function expectedKind(question: string): AnswerKind | null {
  const q = question.toLowerCase();
  if (QUESTION_KINDS.duration.test(q)) return KINDS.duration;
  if (QUESTION_KINDS.frequency.test(q)) return KINDS.frequency;
  if (QUESTION_KINDS.measure.test(q)) return KINDS.measure;
  if (QUESTION_KINDS.money.test(q)) return KINDS.money;
  if (QUESTION_KINDS.contact.test(q)) return KINDS.contact;
  if (QUESTION_KINDS.number.test(q)) return KINDS.number;
  // "Are you open on Sundays?", "Is Dr. Okafor available on Fridays?": an answer speaks of that day
  // (or of the week's days, or every day); hours alone, of another day, do not answer it.
  if (NAMES_A_DAY.test(q)) return KINDS.day;
  // "What are your opening hours?": answered by clock times and days, not "within 30 days".
  if (QUESTION_KINDS.hours.test(q)) return KINDS.hours;
  if (QUESTION_KINDS.time.test(q)) return KINDS.time;
  if (QUESTION_KINDS.person.test(q)) return KINDS.person;
  if (QUESTION_KINDS.place.test(q)) return KINDS.place;
  if (QUESTION_KINDS.reason.test(q)) return KINDS.reason;
  return null;
}

// How a question asks for each kind, in English, Spanish, French, German, Portuguese and Italian
// (checked in this order: "how long" before "how", "cuánto tiempo" before "cuánto").
const QUESTION_KINDS = {
  duration:
    /\bhow (?:long|soon|quickly|fast)\b|\bhow far (?:ahead|in advance|before)\b|\bby when\b|\bhow many (?:days|weeks|months|years|hours|minutes)\b|cu[áa]nto (?:tiempo|tarda|dura)|cu[áa]ntos (?:d[íi]as|meses|a[ñn]os|minutos)|cu[áa]ntas (?:semanas|horas)|combien de (?:temps|jours|semaines|mois|minutes|heures)|quel(?:le)? (?:d[ée]lai|dur[ée]e)|\bwie (?:lange|schnell)\b|\bwie viele (?:tage|wochen|monate|jahre|stunden|minuten)\b|\bbis wann\b|quanto (?:tempo|demora|dura|tarda)|quant[oa]s (?:dias|semanas|meses|anos|horas|minutos)|quanti (?:giorni|mesi|anni|minuti)|quante (?:settimane|ore)|\bentro quando\b/,
  money:
    /\bhow much\b|\bcost\b|\bprice\b|\bfees?\b|\bcharge\b|cu[áa]nto\b|combien(?! de)|\bwie ?viel\b|\bwie hoch\b|\bquanto\b|\b(?:precio|cuesta|cuestan|tarifa|prix|co[ûu]te?n?t?|tarif|frais|suppl[ée]ment|preis|kostet|kosten|geb[üu]hr|pre[çc]o|custa|custam|taxa|prezzo|costa|costano)\b/,
  contact:
    /\b(?:phone|telephone) number\b|\be-?mail address\b|\bcontact (?:details|address)\b|\bcall you\b|\breach you\b|\b(?:tel[ée]fono|t[ée]l[ée]phone|telefonnummer|telefone|telefono)\b/,
  number:
    /\bhow many\b|\bnumber of\b|\bminimum\b|\bmaximum\b|m[áa]xim[oa]|m[íi]nim[oa]|\bmaximal\b|\bmindestens\b|\bhöchstens\b|massim[oa]|\b(?:which|what) (?:version|year|size)\b|cu[áa]ntos|cu[áa]ntas|combien de|wie viele|quant[oa]s|quanti|quante|\b(?:edad|alter|idade)\b|(?:^|[\s'’])(?:âge|età)/,
  hours:
    /\bopening\b|\bclosing\b|\bhours\b|\b(?:are|is)\s+(?:you|they|it|(?:the|your)\s+[\p{L}\p{N}]+(?:\s+[\p{L}\p{N}]+)?)\s+(?:open|closed)\b|\b(?:open|closed?)\s+(?:on|at|until|till|from|today|tomorrow|tonight|late|early|during|over)\b|\b(?:do|does|will)\s+(?:you|they|it|(?:the|your)\s+[\p{L}\p{N}]+)\s+(?:open|close)\b|\bhorarios?\b|\babr[ei]n\b|\babiertos?\b|\bcierran?\b|\bhoraires?\b|\bouverts?\b|\bferm(?:ez|é|e)\b|[öo]ffnungszeiten|\bge[öo]ffnet\b|\boffen\b|\bschlie(?:ß|ss)t\b|\b(?:habt|haben|hat)\b[^?]*\bauf\s*\??$|\bhor[áa]rios?\b|\babertos?\b|\babrem\b|\bfecham?\b|\borari\b|\bapert[oi]\b|\bchiud(?:e|ete|ono)\b/u,
  time:
    // (Opening hours, in every language, are the `hours` kind, read first.)
    /\bwhen\b|\bwhat time\b|\bopen\b|cu[áa]ndo|a qu[ée] hora|\bquand\b|quelle heure|\bwann\b|\bum wie ?viel uhr\b|\bquando\b|que horas|che ora/,
  person: /\bwho (?:founded|started|created|owns|runs|leads|is|are|was|were)\b|\bqui[ée]n(?:es)?\b|\bqui est\b|\bwer\b|\bquem\b|\bchi\b/,
  place: /\bwhere\b|d[óo]nde|direcci[óo]n|\bo[ùu] (?:est|se|sont|trouve)|\badresse\b|\bwo\b|\bwohin\b|\bonde\b|endere[çc]o|\bdove\b|indirizzo/,
  reason: /\bwhy\b|por qu[ée]|pourquoi|\bwarum\b|\bwieso\b|por que|perch[ée]/,
  frequency: /\bhow often\b|\bhow many times\b|\bhow frequently\b|con qu[ée] frecuencia|cada cu[áa]nto|cu[áa]ntas veces|combien de fois|[àa] quelle fr[ée]quence|\bwie oft\b|\bwie h[äa]ufig\b|com que frequ[êe]ncia|quantas vezes|quante volte|ogni quanto|con che frequenza/,
  measure:
    /\bhow (?:tall|wide|big|large|heavy|deep|far(?! (?:ahead|in advance|before))|warm|cold|hot)\b|\bwhat (?:size|temperature|height|width|weight|length|dimensions?)\b|\b(?:temp|temperatures?|fahrenheit|celsius|degrees)\b|\bhow much does (?:it|the [\p{L}\s]+) weigh\b|\bweigh\b|qu[ée] (?:tama[ñn]o|altura|peso|temperatura|medidas?)|cu[áa]nto (?:pesa|mide)|a qu[ée] distancia|quel(?:le)? (?:taille|hauteur|poids|temp[ée]rature|dimensions?)|combien (?:p[eè]se|mesure)|[àa] quelle distance|\bwie (?:gro(?:ß|ss)|breit|schwer|tief|weit|warm|kalt)\b|\bwieg(?:t|en)\b|qual (?:[ée] )?(?:o )?(?:tamanho|altura|peso|temperatura)|quanto (?:pesa|mede)|que tamanho|a que dist[âa]ncia|quanto (?:[èe] )?(?:alt[oa]|pesa|grande)|che (?:taglia|altezza|temperatura|dimensioni)|quanto dista/u,
};
