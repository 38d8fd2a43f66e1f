/**
 * What a visitor's message says about them and what they want, in the six languages the local
 * engine speaks: an email address, a phone number (libphonenumber-js, with the country of the
 * visitor's time zone as the hint, as E.164), a name ("My name is …", "I'm …", or the reply to the
 * bot's name question), a refusal to give details, and a wish to be contacted or to meet.
 */
import { findPhoneNumbersInText, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import ct from 'countries-and-timezones';

export interface FoundDetails {
  name?: string;
  email?: string;
  phone?: string;
}

const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}/u;

// Introductions that always precede a name.
const NAME_INTRO =
  /\b(?:my name is|my name's|je m'appelle|je m’appelle|mon nom est|mein name ist|ich heiße|ich heisse|me llamo|mi nombre es|meu nome é|me chamo|chamo-me|mi chiamo|il mio nome è)\s+(.+)/iu;
// Introductions that precede a name only when a capitalised word follows ("I'm Ana", not "I'm looking";
// "Call me Ana", not "call me back at …").
const WEAK_NAME_INTRO = /(?:^|[\s,.!])(?:i am|i'm|i’m|this is|call me|je suis|moi c'est|ich bin|soy|sou o|sou a|sou|sono)\s+(.+)/iu;
const NAME_WORD = /^\p{Lu}[\p{L}'’-]*$/u;
const NOT_NAMES = new Set(['A', 'I', 'The', 'Here', 'Not', 'Just', 'So', 'Very', 'Really', 'Interested', 'Looking', 'Back', 'At', 'On', 'In', 'Now', 'Today', 'Tomorrow', 'Tonight', 'Later', 'Anytime', 'Asap', 'ASAP', 'Please', 'Maybe', 'Un', 'Une', 'Ein', 'Eine', 'Un', 'Una', 'Um', 'Uma', 'Muy', 'Molto']);

/** The country a time zone lies in, for reading local phone numbers. */
export function countryOfTimezone(timezone: string | null | undefined): CountryCode | undefined {
  if (!timezone) return undefined;
  return ct.getCountryForTimezone(timezone)?.id as CountryCode | undefined;
}

/** An E.164 number, or undefined when the text is not a valid phone number. */
export function normalisePhone(text: string, country?: CountryCode): string | undefined {
  const parsed = parsePhoneNumberFromString(text.trim(), country);
  return parsed?.isValid() ? parsed.number : undefined;
}

export function normaliseEmail(text: string): string | undefined {
  const match = EMAIL.exec(text.trim());
  return match && match[0].length === text.trim().length ? match[0].toLowerCase() : undefined;
}

// "call me Monday", "I'm here until Friday": days are not names.
const WEEKDAYS = new Set(['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday', 'Weekend', 'Morning', 'Afternoon', 'Evening']);

/** Up to three capitalised words from the start of `rest`, within its first clause: a name. */
function leadingName(rest: string, strict: boolean): string | undefined {
  // "I am Dana. My email is…": the name ends with its sentence (or at a comma).
  const clause = rest.split(/[,.;:!?\n]/)[0] ?? '';
  const words = clause.split(/\s+/).filter(Boolean);
  const name: string[] = [];
  for (const word of words.slice(0, 3)) {
    if (!NAME_WORD.test(word) || NOT_NAMES.has(word) || WEEKDAYS.has(word)) break;
    name.push(word);
  }
  if (name.length === 0 && !strict) {
    // "my name is ana" after a strong introduction: take the first word as it is.
    const first = words[0];
    if (first && /^[\p{L}'’-]{2,40}$/u.test(first)) return first[0]!.toUpperCase() + first.slice(1);
  }
  return name.length > 0 ? name.join(' ') : undefined;
}

/** A short reply that is nothing but a name (the answer to "May I have your name?"). */
function bareName(text: string): string | undefined {
  const cleaned = text.trim().replace(/^(?:it'?s|it is|c'est|ich bin|soy|sou|sono)\s+/i, '').replace(/[.!]+$/, '');
  if (!/^[\p{L}'’-]+(?:\s+[\p{L}'’-]+){0,3}$/u.test(cleaned) || cleaned.length > 60) return undefined;
  return cleaned
    .split(/\s+/)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(' ');
}

/** The details a message gives; `asked` is the field the bot asked for in its last reply, if any. */
export function findDetails(text: string, options: { country?: CountryCode; asked?: string } = {}): FoundDetails {
  const found: FoundDetails = {};
  const email = EMAIL.exec(text);
  if (email) found.email = email[0].toLowerCase();
  const withoutEmail = email ? text.replace(email[0], ' ') : text;
  const phone = findPhoneNumbersInText(withoutEmail, options.country ? { defaultCountry: options.country } : undefined)[0];
  if (phone) found.phone = phone.number.number;
  const strong = NAME_INTRO.exec(text);
  const weak = strong ? null : WEAK_NAME_INTRO.exec(text);
  const introduced = strong ? leadingName(strong[1]!, false) : weak ? leadingName(weak[1]!, true) : undefined;
  if (introduced) found.name = introduced;
  else if (options.asked === 'name' && !found.email && !found.phone && !isDecline(text)) {
    const name = bareName(text);
    if (name) found.name = name;
  }
  return found;
}

const DECLINE =
  /^(?:no|nope|nah|no,? thanks?|no thank you|not now|not really|i'?d rather not|rather not|i prefer not|skip|never mind|non|non merci|pas maintenant|je préfère pas|je ne préfère pas|plutôt pas|nein|nein danke|lieber nicht|jetzt nicht|no gracias|prefiero no|ahora no|não|nao|não,? obrigad[oa]|prefiro não|agora não|no grazie|preferisco di no|preferisco no|adesso no)\b/iu;
const DECLINE_ANYWHERE =
  /\b(?:don'?t want to (?:give|share|leave)|do not want to (?:give|share)|won'?t (?:give|share)|no quiero dar|não quero (?:dar|partilhar)|je ne veux pas (?:donner|laisser)|möchte (?:ich )?(?:keine|nicht) (?:angeben|geben)|non voglio (?:dare|lasciare))\b/iu;

/** True when the visitor declines to give details. */
export function isDecline(text: string): boolean {
  const t = text.trim();
  return DECLINE.test(t) || DECLINE_ANYWHERE.test(t);
}

const CONTACT =
  /\b(?:contact me|call me back|call me|reach me|get back to me|get in touch|talk to (?:a |an )?(?:human|person|someone|sales|agent)|speak to (?:a |an )?(?:human|person|someone|sales|agent)|a quote|quotation|an estimate|send me an offer|rappelez-moi|contactez-moi|me contacter|un devis|rückruf|ruft mich an|kontaktieren sie mich|ein angebot|contáctenme|contactarme|llámenme|un presupuesto|una cotización|me liguem|entrem em contato|contactem-me|um orçamento|contattatemi|richiamatemi|un preventivo)\b/iu;

/** True when the visitor asks to be contacted, for a person, or for a quote. */
export function wantsContact(text: string): boolean {
  return CONTACT.test(text);
}

const MEETING =
  /\b(?:meeting|appointment|book a (?:call|demo|time|slot)|schedule (?:a )?(?:call|demo|meeting)|a demo|rendez-vous|réunion|termin|besprechung|reunión|una cita|reunião|marcar (?:uma )?(?:hora|consulta)|agendar|appuntamento|riunione)\b/iu;

/** True when the visitor asks for a meeting, a call slot or an appointment. */
export function wantsMeeting(text: string): boolean {
  return MEETING.test(text);
}
