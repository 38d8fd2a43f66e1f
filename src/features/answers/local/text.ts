/**
 * Tokenising and term normalisation for `parley-local`: lower-casing, stop words, a stem (Porter's
 * for English, Snowball's for the other five languages), spelling variants and a small set of
 * general help-desk synonyms folded onto one term; a visitor writing in another language than the
 * knowledge's has their words read through the lexicons (`lexicon.ts`).
 */
import type { PhraseLanguage } from './phrases.ts';
import { englishWordsFor, foreignWordsFor, isForeignFunctionWord, type ForeignLanguage } from './lexicon.ts';
import { englishStem as stemmer, STEMMERS } from './stemmers.ts';
import { ENGLISH_LOOKALIKES, TRANSLATED_CONCEPTS } from './translated-concepts.ts';

// Question words and function words of the six phrase languages; content words are what remains.
const STOP_WORDS = new Set(
  `a about above after again against all also am an and any are aren as at be because been before being below
  between both but by can cannot could couldn did didn do does doesn doing don down during each either else
  ever every few for from further get gets getting got had has have having he her here hers him his how i if
  in into is isn it its itself just let lets like ll me might more most much must my myself need needs no nor
  not now of off on once only or other our ours out over own please re really s same shall she should so some
  such t than that thats the their theirs them then there these they this those through to too under until
  up us ve very was wasn way we were what whats when where whether which while who whom whose why will with
  within without won would yes yet you your yours yourself d m
  hi hello hey thanks thank ok okay anyone somebody someone something anything thing things tell know want
  wanted wondering wonder help possible able actually exactly maybe still already one ones anymore ever
  el la los las un una unos unas de del al y o en por para con sin que como cuando donde es son está estan
  mi mis tu su sus se lo le les me te nos qué cómo cuánto cuanto puedo puede hay muy más
  le les un une des du de et ou en dans par pour avec sans que qui quoi comment quand où est sont mon ma mes
  ton ta votre vos son sa ses je tu il elle nous vous ils elles ce cette ces puis peut pas ne plus
  der die das ein eine einen einem einer und oder in im mit ohne für von zu zum zur ist sind wie was wann wo
  ich du er sie es wir ihr mein meine dein kann können nicht auch auf habt haben
  o a os as um uma de do da dos das e ou em no na nos nas por para com sem que como quando onde é são meu
  minha posso pode não mais
  il lo la i gli le un uno una di del della e o in nel nella per con senza che come quando dove è sono mio
  mia posso può non più
  debo debe deben dois doit doivent faut muss musst müssen devo deve devem devi devono dobbiamo cosa`.split(/\s+/),
);

// Spelling variants, irregular forms and number words folded before stemming. (Maps, not objects:
// a visitor's "constructor" must not find Object.prototype's.)
const WORD_MAP = new Map<string, string>(Object.entries({
  colour: 'color', colours: 'color', aluminium: 'aluminum', cancelled: 'canceled', cancelling: 'canceling',
  cheque: 'check', cheques: 'check', instalment: 'installment', instalments: 'installment', organisation: 'organization',
  licence: 'license', kept: 'keep', sent: 'send', paid: 'pay', bought: 'buy', forgot: 'forget', forgotten: 'forget',
  lost: 'lose', broke: 'broken', gave: 'give', given: 'give', took: 'take', taken: 'take', made: 'make',
  ridden: 'ride', rode: 'ride', worn: 'wear', wore: 'wear', stolen: 'steal', stole: 'steal', sold: 'sell',
  chosen: 'choose', chose: 'choose', written: 'write', wrote: 'write', held: 'hold', left: 'leave', spent: 'spend',
  brought: 'bring', caught: 'catch', fell: 'fall', fallen: 'fall', torn: 'tear', tore: 'tear', won: 'win',
  knew: 'know', known: 'know', grew: 'grow', grown: 'grow', began: 'begin', begun: 'begin', hidden: 'hide',
  zero: '0', twice: '2', double: '2', two: '2', three: '3', four: '4', five: '5', six: '6', seven: '7', eight: '8', nine: '9',
  ten: '10', eleven: '11', twelve: '12', twenty: '20', thirty: '30', hundred: '100', percent: '%',
  ebike: 'e bike', ebikes: 'e bike', email: 'email', emails: 'email', mails: 'mail', bicycle: 'bike', bicycles: 'bike',
  setup: 'set up', login: 'signin', logon: 'signin', signin: 'signin', sign_in: 'signin', signon: 'signin',
}));

// Multi-word expressions rewritten to one term before tokenising (each side of the match).
const PHRASES: [RegExp, string][] = [
  [/\b(?:log|sign)(?:ged|ging|ed|ing|s)?[\s-]?(?:in|on)(?:to)?\b/g, ' signin '],
  [/\b(?:log|sign)(?:ged|ging|ed|ing|s)?[\s-]?out\b/g, ' signout '],
  [/\b(?:two|2)[\s-]?(?:factor|step)(?:[\s-]?(?:authentication|verification|auth))?\b|\b2fa\b|\bmfa\b/g, ' twostep '],
  [/\breimburs\w*/g, ' refund '],
  [/\bopt(?:ed|ing)?[\s-]out\b/g, ' unsubscribe '],
  [/\b(?:send|sent|sending|bring|brought|take|took|ship|mail)\s+((?:[\p{L}\p{N}]+\s+){0,2}?)back\b/gu, ' return $1'],
  // "Get my money back" is a refund, the money included.
  [/\b(?:give|gave|giving|pay|paying|get|getting)\s+(?:(?:my|our|the|your|their|his|her|all)\s+)?(?:money|cash)\s+back\b/g, ' refund '],
  [/\b(?:give|gave|giving|pay|paying|get|getting)\s+((?:[\p{L}\p{N}]+\s+){0,3}?)back\b/gu, ' refund $1'],
  [/\b(?:postal|zip|post)\s+codes?\b/g, ' postcode '],
  [/\bat least\b/g, ' minimum '],
  [/\bkicks? in\b|\btakes? effect\b|\bcomes? into effect\b/g, ' effect '],
  [/\bat most\b|\bup to\b/g, ' maximum '],
  [/\bpromo(?:tional)?\b|\bcoupons?\b|\bvouchers?\b|\bdiscount codes?\b/g, ' discount '],
  [/\be-?mail addresse?s?\b/g, ' email '],
  [/\bcustomer (?:service|care|support)\b/g, ' support '],
  [/\bsign(?:ed|ing|s)?[\s-]?up\b/g, ' signup '],
  [/\bhow (?:long|many|quickly|fast|soon|often)\b/g, ' '],
  [/\b(\d+)\s*percent\s+off\b/g, ' $1 percent discount '],
  [/\bin stock\b/g, ' stock '],
  // Everyday words for what help centres name otherwise.
  // ("don't" is "do not" by now.)
  [/\b(?:not|never)\s+(?:show|turn)(?:s|ed|ing)?\s+up\b|\bno[\s-]shows?\b/g, ' noshow '],
  // Something that does not fit is sent back: "if the shoes don't fit" asks about returns.
  [/\b(?:does|do|did)\s+not\s+fit\b/g, ' return '],
  [/\bpay(?:ing)?\s+(?:with|by|using|on)\s+(?:my\s+|a\s+|your\s+|the\s+)?(?:phone|mobile|smartphone|watch)\b|\b(?:apple|google|samsung)\s+pay\b|\bmobile wallets?\b/g, ' mobilepay '],
  [/\b(?:real|actual|live)\s+(?:person|people|human|humans)\b/g, ' agent '],
  [/\bring\s+(?:you|us|someone|somebody|a\s+number)\b|\b(?:number|someone|somebody)\s+(?:i|we)\s+can\s+ring\b/g, ' call '],
  [/\b(?:leave|put|park)\s+(?:my|the|our|your)\s+(?:car|vehicle)\b/g, ' park '],
  [/\b(?:dec(?:ember)?\.?\s+25(?:th)?|25(?:th)?\s+(?:of\s+)?dec(?:ember)?)\b|\bchristmas day\b|\bxmas\b/g, ' christmas '],
  [/\b(?:split|spread|break)\s+(?:(?:it|this|that|the\s+\p{L}+)\s+)?(?:up\s+)?(?:into|over|across)\s+(?:\p{L}+\s+)?(?:chunks|payments|installments|instalments|months|parts)\b|\bpayment plans?\b|\bpay (?:it )?(?:off )?monthly\b/gu, ' installment '],
  [/\b(?:my|our|a|an)\s+\d{1,2}[\s-]?(?:year|yr)[\s-]?olds?\b/g, ' child '],
  [/\b(?:go|goes|going|went)\s+away\b|\bdisappears?\b|\bvanish(?:es)?\b|\blapses?\b/g, ' expire '],
  // A service that "goes down", not a shop "down the street".
  [/\b(?:goes|go|went|is|are|was)\s+down\b(?!\s+(?:the|a|to|from|by|at)\b)/g, ' outage '],
  // Phrases of the other five languages that name one thing ("mot de passe", "Geld zurück"), read
  // alike in a question and in knowledge written in that language.
  [/\bmots? de passe\b/g, ' password '],
  [/\bgeld\s+zur[üu]ck\b|\b(?:devolver|devuelv[ae]n|devoluci[óo]n\s+del?|recuperar)\s+(?:el\s+|mi\s+|los\s+|del\s+)?dinero\b|\bdinheiro\s+de\s+volta\b|\b(?:devolver|devolvam|devolução\s+do|recuperar)\s+(?:o\s+|meu\s+)?dinheiro\b|\b(?:r[ée]cup[ée]rer|ravoir)\s+(?:mon\s+|l['’]\s*)?argent\b|\b(?:restituire|ridare|riavere|rimborsare)\s+(?:i\s+)?soldi\b|\bsoldi\s+indietro\b/g, ' refund '],
  [/\bfin(?:es)?\s+de\s+semana\b|\bfim\s+de\s+semana\b|\bfine\s+settimana\b|\bwochenende\b/g, ' weekend '],
  // German runs a weekday and a part of the day together ("Mittwochnachmittag"): two words here.
  [/\b(montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag)(vormittag|nachmittag|mittag|abend|morgen|nacht)(s)?\b/g, ' $1 $2$3 '],
];

// Upper-case abbreviations, read before lower-casing ("US" is not "us").
const ABBREVIATIONS: [RegExp, string][] = [
  [/\bU\.?S\.?A\.?(?=\W|$)|\bU\.S\.(?=\W|$)|\bUS\b/g, 'United States'],
  [/\bU\.?K\.?(?=\W|$)/g, 'United Kingdom'],
  [/\bEU\b/g, 'European Union'],
];

// Groups of words that mean the same thing in a help centre; every member maps to the first one's stem.
const SYNONYM_GROUPS: string[][] = [
  ['refund', 'refunded', 'refunding', 'refunds'],
  ['cancel', 'canceled', 'canceling', 'cancellation', 'terminate', 'termination', 'unsubscribe'],
  ['ship', 'shipping', 'shipped', 'shipment', 'deliver', 'delivery', 'delivered', 'deliveries', 'dispatch', 'send', 'mail', 'postage'],
  ['cost', 'costs', 'price', 'prices', 'pricing', 'priced', 'fee', 'fees', 'charge', 'charges', 'charged', 'expensive'],
  ['buy', 'purchase', 'purchased', 'purchases', 'buying'],
  ['exchange', 'exchanges', 'swap', 'swapped'],
  ['warranty', 'warranties', 'guarantee', 'guaranteed', 'guarantees'],
  ['password', 'passwords', 'passphrase', 'passcode'],
  ['support', 'assistance', 'helpdesk', 'agent', 'agents'],
  ['phone', 'telephone', 'call', 'calls'],
  ['discount', 'discounts', 'rebate', 'deal'],
  ['damage', 'damaged', 'broken', 'crushed', 'dented', 'smashed'],
  ['defect', 'defective', 'faulty', 'fault', 'malfunction'],
  ['expire', 'expired', 'expiry', 'expiration', 'expires'],
  ['delete', 'deleted', 'deletion', 'erase', 'remove', 'removed'],
  ['customs', 'duty', 'duties'],
  ['app', 'application', 'apps'],
  ['data', 'information', 'info'],
  ['keep', 'retain', 'retained', 'retention'],
  ['free', 'complimentary', 'gratis'],
  ['installment', 'installments', 'financing', 'finance', 'financed'],
  ['year', 'years', 'yearly', 'annual', 'annually'],
  ['month', 'months', 'monthly'],
  ['international', 'abroad', 'overseas'],
  ['quick', 'quickly', 'fast', 'faster', 'speed', 'soon'],
  ['signature', 'sign', 'signed'],
  ['error', 'errors', 'bug'],
  ['crypto', 'cryptocurrency', 'bitcoin', 'ethereum'],
  ['fix', 'repair', 'repaired', 'repairs', 'mend'],
  ['receipt', 'receipts'],
  ['invoice', 'invoices', 'invoiced', 'invoicing'],
  ['subscription', 'subscriptions', 'membership', 'memberships'],
  ['vat', 'gst', 'hst', 'tax'],
  ['merge', 'merged', 'combine', 'combined', 'consolidate'],
  ['trial', 'try', 'tries', 'tried', 'trying'],
  ['decline', 'declined', 'refuse', 'refused', 'reject', 'rejected', 'deny', 'denied'],
  ['home', 'house', 'door', 'doorstep'],
  ['newsletter', 'newsletters', 'marketing'],
  ['currency', 'currencies', 'dollar', 'dollars', 'euro', 'euros', 'pound', 'pounds', 'yen'],
  ['minimum', 'min', 'least'],
  ['maximum', 'max', 'most', 'limit', 'limits'],
  ['length', 'long', 'lengthy'],
  ['stake', 'stakes', 'staked', 'peg', 'pegs', 'pegged', 'pegging'],
  ['outage', 'outages', 'downtime', 'uptime', 'availability'],
  ['freeze', 'freezes', 'frozen', 'pause', 'paused', 'pausing', 'suspend', 'suspended', 'suspension'],
  ['child', 'children', 'kid', 'kids', 'toddler', 'toddlers'],
  ['pet', 'pets', 'dog', 'dogs', 'cat', 'cats', 'puppy'],
  ['book', 'booking', 'bookings', 'booked', 'reserve', 'reserved', 'reservation', 'reservations'],
  ['late', 'lateness', 'delay', 'delays', 'delayed'],
  ['postcode', 'postcodes', 'zipcode'],
  ['pay', 'pays', 'paying', 'payment', 'payments'],
  ['advance', 'ahead', 'beforehand'],
  ['appeal', 'appeals', 'appealed', 'contest', 'dispute', 'disputes', 'disputed'],
];

// Words that rarely name the topic of a question: they count, but for less.
const LIGHT_WORDS = new Set(
  `mean means meant show shows showing shown give gives giving get gets place placed find found make makes happen happens
  happened work works working take takes go goes going gone come comes came see seen look looks use used using put back right thing things kind sort option options way ways time times long many much new old first last next
  day days good bad best better enough little lot lots whole part sure problem issue question say says said tell
  told now keep keeps kept mobile regular normal usual single large small big offer offers provide provides allow
  allowed local instead available item items product products stuff larger bigger smaller`.split(/\s+/),
);

/** How much a query word counts towards the question's topic (1 for most words). */
export function wordWeight(word: string): number {
  return LIGHT_WORDS.has(word) ? 0.3 : 1;
}

const CANONICAL = new Map<string, string>();
const GROUP_OF = new Map<string, string[]>();
for (const group of SYNONYM_GROUPS) {
  const head = stemmer(group[0]!);
  GROUP_OF.set(head, group);
  for (const word of group) CANONICAL.set(stemmer(word), head);
}
// A translated word's own language's list, for full-text expansion (keyed by the word's stem).
const TRANSLATED_GROUP_OF = new Map<string, string[]>();
// A translated word's English head, searched too: a question in French finds an English help centre.
const ENGLISH_HEAD_OF = new Map<string, string>();
// For text stemmed in another language: its own stems of the translated words, onto the English term.
const CANONICAL_IN = new Map<PhraseLanguage, Map<string, string>>();
// For a question written in one of the five languages about English knowledge: each translated
// word by its own language's stem, with its list and the English head full-text search adds.
const TRANSLATED_IN = new Map<PhraseLanguage, Map<string, { group: string[]; head: string }>>();
for (const [head, byLanguage] of TRANSLATED_CONCEPTS) {
  const term = CANONICAL.get(stemmer(head)) ?? stemmer(head);
  for (const [language, list] of Object.entries(byLanguage) as [PhraseLanguage, string][]) {
    const group = list.split(' ');
    if (!CANONICAL_IN.has(language)) CANONICAL_IN.set(language, new Map());
    if (!TRANSLATED_IN.has(language)) TRANSLATED_IN.set(language, new Map());
    for (const word of group) {
      CANONICAL_IN.get(language)!.set(STEMMERS[language](word), term);
      TRANSLATED_IN.get(language)!.set(STEMMERS[language](word), { group, head });
      // Read in English stemming (English knowledge, a question whose language is unclear) too,
      // unless the English stemmer would take it for a common English word.
      if (ENGLISH_LOOKALIKES.has(word)) continue;
      CANONICAL.set(stemmer(word), term);
      TRANSLATED_GROUP_OF.set(stemmer(word), group);
      ENGLISH_HEAD_OF.set(stemmer(word), head);
    }
  }
}

// A host name's last label names no topic: "brightpath.app" must not answer "do you have an app?".
const TOP_LEVEL_DOMAIN = /(?<=[\p{L}\p{N}]\.)(?:com|net|org|io|app|co|uk|us|ca|au|eu|de|fr|es|it|pt|ch|at|be|nl|info|biz|dev|ai|shop|store|online|site|help|support|studio|cafe)(?![\p{L}\p{N}.-])/giu;

/** Lower-cased words, numbers and codes of a text (diacritics kept, punctuation dropped, host names without their last label). */
export function words(text: string): string[] {
  let s = text.normalize('NFKC').replace(TOP_LEVEL_DOMAIN, '');
  for (const [pattern, replacement] of ABBREVIATIONS) s = s.replace(pattern, replacement);
  s = s
    .toLowerCase()
    .replace(/%/g, ' percent ')
    .replace(/\bcan[’']t\b/g, 'can not')
    .replace(/\bwon[’']t\b/g, 'will not')
    .replace(/n[’']t\b/g, ' not')
    .replace(/[’'](?:s|re|ve|ll|d|m)\b/g, '');
  for (const [pattern, replacement] of PHRASES) s = s.replace(pattern, replacement);
  const out: string[] = [];
  // Numbers keep their separators ("2,000", "19.95") so that "2" does not match "$2,000".
  for (const w of s.match(/\d+(?:[.,]\d+)+|[\p{L}\p{N}]+/gu) ?? []) {
    const mapped = WORD_MAP.get(w);
    if (mapped === undefined) out.push(w);
    else out.push(...mapped.split(' '));
  }
  return out;
}

const termCache = new Map<string, string>();
const TERM_CACHE_LIMIT = 100_000;

/**
 * The normalised term of one lower-cased word: stemmed in the text's language and folded onto its
 * synonym group (English terms for the translated help-desk words of the other languages). A word
 * of a question `written` in another language, scored against English knowledge, is first looked
 * up among its own language's translated words, then in its lexicon (its likeliest English meaning;
 * `readWord` chooses among them by the knowledge).
 */
export function termOf(word: string, language: PhraseLanguage = 'en', written?: PhraseLanguage): string {
  const foreign = foreignReader(language, written);
  const key = foreign ? `${foreign}>en\u0000${word}` : language === 'en' ? word : `${language}\u0000${word}`;
  let term = termCache.get(key);
  if (term !== undefined) return term;
  if (foreign) {
    term = CANONICAL_IN.get(foreign)?.get(STEMMERS[foreign](word));
    const english = term === undefined ? englishWordsFor(word, foreign)[0] : undefined;
    if (english) term = stemmedTerm(english, 'en');
  }
  term ??= stemmedTerm(word, language);
  if (termCache.size >= TERM_CACHE_LIMIT) termCache.clear();
  termCache.set(key, term);
  return term;
}

/**
 * The language to read a text's words in before English, when a visitor `written` in another
 * language is scored against English (`language`): their words are translated, not stemmed as English.
 */
function foreignReader(language: PhraseLanguage, written: PhraseLanguage | undefined): ForeignLanguage | undefined {
  return written !== undefined && written !== 'en' && language === 'en' ? written : undefined;
}

/**
 * True for a word that names no topic: a stop word, or, in a text `written` in another language, a
 * function word of that language or a word whose translation is an English stop word.
 */
function isFunctionWord(word: string, written: PhraseLanguage | undefined): boolean {
  if (STOP_WORDS.has(word)) return true;
  if (written === undefined || written === 'en') return false;
  if (isForeignFunctionWord(word, written)) return true;
  const english = englishWordsFor(word, written)[0];
  return english !== undefined && STOP_WORDS.has(english);
}

/** How many of the retrieved sentences hold each term. */
export type KnownTerms = ReadonlyMap<string, number>;

/** The candidate whose term the knowledge uses most (the earlier on a tie), if it uses any. */
function mostUsed(candidates: readonly string[], termOfCandidate: (candidate: string) => string, known: KnownTerms): string | undefined {
  let best: string | undefined;
  let bestCount = 0;
  for (const candidate of candidates) {
    const count = known.get(termOfCandidate(candidate)) ?? 0;
    if (count > bestCount) [best, bestCount] = [candidate, count];
  }
  return best;
}

// Shorter words of another language too often spell an unrelated English word.
const LOANWORD_MIN_LENGTH = 4;

/**
 * A word's term and, when it was translated, the English word it was read as. Of the English words
 * a visitor's word may mean ("aplicación": enforcement, application, app), the one the knowledge
 * uses most (`known`: the retrieved sentences holding each term) is chosen, else the likeliest.
 */
function readWord(word: string, language: PhraseLanguage, written: PhraseLanguage | undefined, known: KnownTerms | undefined): { term: string; english?: string } {
  // An English question asked of knowledge in another language: each word is read as its
  // translation the knowledge uses, else its usual one (or as written, when the knowledge has it).
  if (written === 'en' && language !== 'en' && !STOP_WORDS.has(word)) {
    const own = termOf(word, language);
    if (known?.has(own)) return { term: own };
    const translations = foreignWordsFor(word, language);
    const chosen = (known && mostUsed(translations, (t) => termOf(t, language), known)) ?? translations[0];
    return { term: chosen ? termOf(chosen, language) : own };
  }
  const reader = foreignReader(language, written);
  if (!reader || CANONICAL_IN.get(reader)?.has(STEMMERS[reader](word))) return { term: termOf(word, language, written) };
  // A word the knowledge itself uses is read as written: a name or an English word in the visitor's
  // sentence ("Was kostet ein Full Groom?"), a loanword ("Team", "online").
  if (known && word.length >= LOANWORD_MIN_LENGTH && known.has(stemmedTerm(word, 'en'))) return { term: stemmedTerm(word, 'en') };
  const meanings = englishWordsFor(word, reader);
  const english = (known && mostUsed(meanings, (meaning) => stemmedTerm(meaning, 'en'), known)) ?? meanings[0];
  return english ? { term: stemmedTerm(english, 'en'), english } : { term: termOf(word, language, written) };
}

function stemmedTerm(word: string, language: PhraseLanguage): string {
  if (/^\p{N}/u.test(word)) return word;
  const stem = language === 'en' ? stemmer(word) : STEMMERS[language](word);
  return (language === 'en' ? CANONICAL.get(stem) : CANONICAL_IN.get(language)?.get(stem)) ?? stem;
}

/** True for function words that carry no topic. */
export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

/**
 * The content terms of a text, in order (duplicates kept); `known`, the terms of the knowledge it is
 * scored against, chooses among a translated word's meanings.
 */
export function contentTerms(text: string, language: PhraseLanguage = 'en', written?: PhraseLanguage, known?: KnownTerms): string[] {
  const names = namesIn(text, written);
  return words(text)
    .filter((w) => names.has(w) || !isFunctionWord(w, written))
    .map((w) => (names.has(w) ? termOf(w, language) : readWord(w, language, written, known).term));
}

// A capitalised word inside a sentence, in the four languages that capitalise only names.
const NAME_INSIDE = /(?<=[\p{L}\p{N},;:)'’"»“]\s+)\p{Lu}[\p{L}\p{N}]*/gu;

/**
 * The names a visitor's message holds ("el plan Solo", "le club Wharfside"), lower-cased: they are
 * read as written, never translated nor dropped as function words. German capitalises every noun,
 * and English needs no translation, so only Spanish, French, Portuguese and Italian have any.
 */
function namesIn(text: string, written: PhraseLanguage | undefined): Set<string> {
  if (written === undefined || written === 'en' || written === 'de') return NO_NAMES;
  return new Set((text.match(NAME_INSIDE) ?? []).flatMap((name) => words(name)));
}
const NO_NAMES = new Set<string>();

// Words the full-text index holds for the terms made up above.
const SURFACE = new Map<string, string[]>(Object.entries({
  signin: ['sign', 'login'],
  signout: ['sign', 'logout'],
  signup: ['sign', 'signup', 'register'],
  twostep: ['step', 'verification', 'factor'],
  noshow: ['show', 'missed'],
  mobilepay: ['apple', 'google', 'pay'],
  '%': ['percent'],
}));
const EXPANSIONS_PER_WORD = 3;
const SEARCHED_MEANINGS = 2;

/** The content terms of a text with their weights (a light word counts less); `known` as for `contentTerms`. */
export function weightedTerms(text: string, language: PhraseLanguage = 'en', written?: PhraseLanguage, known?: KnownTerms): Map<string, number> {
  const names = namesIn(text, written);
  const out = new Map<string, number>();
  for (const w of words(text)) {
    const name = names.has(w);
    if (!name && isFunctionWord(w, written)) continue;
    const { term, english } = name ? { term: termOf(w, language) } : readWord(w, language, written, known);
    out.set(term, Math.max(out.get(term) ?? 0, wordWeight(english ?? w)));
  }
  return out;
}

/**
 * An English text's content words in `language`: the usual translations of each (`perWord` at
 * most), for searching knowledge written in that language.
 */
export function translatedSearchWords(text: string, language: ForeignLanguage, perWord = SEARCHED_MEANINGS): string[] {
  const out: string[] = [];
  for (const w of words(text)) {
    if (STOP_WORDS.has(w)) continue;
    out.push(...foreignWordsFor(w, language).slice(0, perWord));
  }
  return [...new Set(out)];
}

/**
 * The words worth sending to full-text search: the content words first, then other members of
 * their synonym groups (a few each), without duplicates.
 */
export function searchWords(text: string, written?: PhraseLanguage): string[] {
  const foreign = written && written !== 'en' ? written : undefined;
  const names = namesIn(text, written);
  const own: string[] = [];
  const extra: string[] = [];
  for (const w of words(text)) {
    if (names.has(w)) {
      own.push(w);
      continue;
    }
    if (isFunctionWord(w, foreign)) continue;
    own.push(...(SURFACE.get(w) ?? [w]));
    const translated = foreign ? TRANSLATED_IN.get(foreign)?.get(STEMMERS[foreign](w)) : undefined;
    // A visitor's word in another language is searched in English too, next to their own (its
    // likeliest meanings): the knowledge may be an English help centre.
    if (foreign && !translated) for (const english of englishWordsFor(w, foreign).slice(0, SEARCHED_MEANINGS)) if (english !== w) own.push(english);
    const head = translated?.head ?? ENGLISH_HEAD_OF.get(stemmer(w));
    if (head) extra.push(head);
    const group = translated?.group ?? TRANSLATED_GROUP_OF.get(stemmer(w)) ?? GROUP_OF.get(termOf(w));
    if (!group) continue;
    const stems = new Set([stemmer(w)]);
    for (const member of group) {
      if (stems.size > EXPANSIONS_PER_WORD) break;
      const stem = stemmer(member);
      if (stems.has(stem)) continue;
      stems.add(stem);
      extra.push(member);
    }
  }
  return [...new Set([...own, ...extra])];
}
