/** What `parley-local` says to collect contact details and to offer a meeting, in each language it speaks. */
import type { PhraseLanguage } from '../answers/local/phrases.ts';

export interface LeadPhrases {
  name: string;
  email: string;
  phone: string;
  /** A custom lead field, by its name as the bot lists it. */
  other: (field: string) => string;
  /** The booking link, when the visitor asks for a meeting. */
  meeting: (url: string) => string;
  /** The reply to a message that only gave details: thanks, before the next question. */
  thanks: string;
  /** The reply once every detail is known. */
  done: string;
}

export const LEAD_PHRASES: Record<PhraseLanguage, LeadPhrases> = {
  en: {
    name: 'May I have your name?',
    email: 'If you leave your email address, our team can follow up with you.',
    phone: 'Could you also share a phone number where we can reach you?',
    other: (field) => `Could you tell me your ${field.replace(/_/g, ' ')}?`,
    meeting: (url) => `You can book a meeting with us here: ${url}`,
    thanks: 'Thank you!',
    done: 'Thank you! Our team will be in touch soon.',
  },
  es: {
    name: '¿Me dice su nombre?',
    email: 'Si nos deja su correo electrónico, nuestro equipo se pondrá en contacto con usted.',
    phone: '¿Podría darnos también un número de teléfono de contacto?',
    other: (field) => `¿Podría indicarme su ${field.replace(/_/g, ' ')}?`,
    meeting: (url) => `Puede reservar una cita con nosotros aquí: ${url}`,
    thanks: '¡Gracias!',
    done: '¡Gracias! Nuestro equipo se pondrá en contacto con usted pronto.',
  },
  fr: {
    name: 'Puis-je avoir votre nom ?',
    email: 'Si vous nous laissez votre adresse e-mail, notre équipe reviendra vers vous.',
    phone: 'Pourriez-vous aussi nous donner un numéro de téléphone ?',
    other: (field) => `Pourriez-vous m’indiquer votre ${field.replace(/_/g, ' ')} ?`,
    meeting: (url) => `Vous pouvez réserver un rendez-vous avec nous ici : ${url}`,
    thanks: 'Merci !',
    done: 'Merci ! Notre équipe vous contactera bientôt.',
  },
  de: {
    name: 'Darf ich nach Ihrem Namen fragen?',
    email: 'Wenn Sie uns Ihre E-Mail-Adresse hinterlassen, meldet sich unser Team bei Ihnen.',
    phone: 'Könnten Sie uns auch eine Telefonnummer nennen, unter der wir Sie erreichen?',
    other: (field) => `Könnten Sie mir noch Folgendes nennen: ${field.replace(/_/g, ' ')}?`,
    meeting: (url) => `Hier können Sie einen Termin mit uns buchen: ${url}`,
    thanks: 'Vielen Dank!',
    done: 'Vielen Dank! Unser Team meldet sich bald bei Ihnen.',
  },
  pt: {
    name: 'Pode dizer-me o seu nome?',
    email: 'Se nos deixar o seu e-mail, a nossa equipa entrará em contacto consigo.',
    phone: 'Pode também indicar um número de telefone para contacto?',
    other: (field) => `Pode indicar-me o seu ${field.replace(/_/g, ' ')}?`,
    meeting: (url) => `Pode marcar uma reunião connosco aqui: ${url}`,
    thanks: 'Obrigado!',
    done: 'Obrigado! A nossa equipa entrará em contacto consigo em breve.',
  },
  it: {
    name: 'Posso sapere il suo nome?',
    email: 'Se ci lascia il suo indirizzo e-mail, il nostro team la ricontatterà.',
    phone: 'Può lasciarci anche un numero di telefono?',
    other: (field) => `Può indicarmi il suo ${field.replace(/_/g, ' ')}?`,
    meeting: (url) => `Può prenotare un appuntamento con noi qui: ${url}`,
    thanks: 'Grazie!',
    done: 'Grazie! Il nostro team la contatterà presto.',
  },
};

/** The question for one lead field in a language. */
export function askFor(field: string, language: PhraseLanguage): string {
  const phrases = LEAD_PHRASES[language];
  return field === 'name' || field === 'email' || field === 'phone' ? phrases[field] : phrases.other(field);
}
