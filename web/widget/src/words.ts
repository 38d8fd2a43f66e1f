/**
 * The widget's own words (labels, buttons, errors, the lead form, notices) in each language the
 * service speaks, and how the language is chosen: the bot's `response_language` when the widget
 * speaks it, else the first of the visitor's browser languages it speaks, else English. Every
 * language is a `WidgetWords`, so a missing translation fails the widget's typecheck. What the
 * service words itself (a refusal's `detail`) and the bot's own texts are shown as they come, except
 * the lead form's refusals, which a visitor fixes field by field and so gets in these words.
 */
import type { FailureKind } from './store.ts';

/** The languages of `src/features/answers/local/phrases.ts`, English (the fallback) first. */
export const WIDGET_LANGUAGES = ['en', 'fr', 'de', 'es', 'pt', 'it'] as const;

/** A language the widget speaks (ISO 639-1). */
export type WidgetLanguage = (typeof WIDGET_LANGUAGES)[number];

/** Every fixed text the widget shows or gives screen readers. */
export interface WidgetWords {
  /** The launcher's name while the panel is closed. */
  openChat(botName: string, unread: number): string;
  /** The launcher's name while the panel is open: not the header's `closeChat`, so that the two can be told apart. */
  hideChat: string;
  closeChat: string;
  /** The launcher's visible label (the bubble style), closed and open; each is part of the launcher's name. */
  launcherOpen: string;
  launcherHide: string;
  takeover: string;
  leaveDetails: string;
  bookMeeting: string;
  /** The log's name. */
  conversation: string;
  /** Who wrote a message, before it for screen readers: `said(you)`, `said(botName)`, `said(file)`. */
  said(who: string): string;
  you: string;
  /** An operator's messages are signed with this. */
  team: string;
  writing: string;
  sources: string;
  wasHelpful: string;
  helpful: string;
  notHelpful: string;
  tryAgain: string;
  failures: Record<FailureKind, string>;
  file: string;
  sending(percent: number): string;
  sendingFile(fileName: string): string;
  sent: string;
  uploadFailed: string;
  uploadOffline: string;
  typeRefused(allowed: string): string;
  tooLarge(size: string, limit: string): string;
  emptyFile: string;
  fileSize(bytes: number): string;
  attach: string;
  yourMessage: string;
  placeholder: string;
  send: string;
  leadTitle: string;
  leadFields: { name: string; email: string; phone: string };
  leadFailed: string;
  /** A refused lead form, shown beside the field the service named: an invalid address or number, or neither given. */
  leadInvalid: { email: string; phone: string };
  leadContactNeeded: string;
  notNow: string;
  sendDetails: string;
  leadThanks: string;
}

/** `12 kB`, `3.4 MB` in the language's units and decimal mark. */
function sizeIn([b, kb, mb]: [string, string, string], decimalComma: boolean) {
  return (bytes: number): string => {
    if (bytes < 1000) return `${bytes} ${b}`;
    if (bytes < 1_000_000) return `${Math.round(bytes / 1000)} ${kb}`;
    const value = (bytes / 1_000_000).toFixed(1).replace(/\.0$/, '');
    return `${decimalComma ? value.replace('.', ',') : value} ${mb}`;
  };
}

const metric = sizeIn(['B', 'kB', 'MB'], true);

/** All the widget's words, by language. */
export const WORDS: Record<WidgetLanguage, WidgetWords> = {
  en: {
    openChat: (bot, unread) => (unread > 0 ? `Open chat with ${bot} (${unread} new)` : `Open chat with ${bot}`),
    hideChat: 'Hide chat',
    closeChat: 'Close chat',
    launcherOpen: 'Chat',
    launcherHide: 'Hide',
    takeover: 'A person from the team has joined the conversation and will reply here.',
    leaveDetails: 'Leave your details',
    bookMeeting: 'Book a meeting',
    conversation: 'Conversation',
    said: (who) => `${who}: `,
    you: 'You',
    team: 'Team',
    writing: 'Writing an answer',
    sources: 'Sources',
    wasHelpful: 'Was this answer helpful?',
    helpful: 'Helpful',
    notHelpful: 'Not helpful',
    tryAgain: 'Try again',
    failures: {
      quota: 'This assistant has answered all the messages it can for now. Please try again later.',
      answer: 'Sorry, something went wrong while answering.',
      offline: 'The message could not be sent: you seem to be offline.',
      busy: 'You are sending messages quickly. Please wait a moment.',
      refused: 'This chat is not available on this page.',
    },
    file: 'File',
    sending: (percent) => `Sending… ${percent}%`,
    sendingFile: (name) => `Sending ${name}`,
    sent: 'Sent',
    uploadFailed: 'The file could not be sent.',
    uploadOffline: 'The file could not be sent: the connection failed.',
    typeRefused: (allowed) => `This type of file cannot be sent. Allowed: ${allowed}`,
    tooLarge: (size, limit) => `This file is ${size}; the limit is ${limit}.`,
    emptyFile: 'This file is empty.',
    fileSize: sizeIn(['B', 'kB', 'MB'], false),
    attach: 'Attach a file',
    yourMessage: 'Your message',
    placeholder: 'Write a message…',
    send: 'Send message',
    leadTitle: 'Leave your details and we will get back to you',
    leadFields: { name: 'Name', email: 'Email', phone: 'Phone' },
    leadFailed: 'Your details could not be sent. Please try again.',
    leadInvalid: {
      email: 'Please enter a valid email address.',
      phone: 'Please enter a valid phone number, for example +44 20 7946 0958.',
    },
    leadContactNeeded: 'Please enter an email address or a phone number.',
    notNow: 'Not now',
    sendDetails: 'Send details',
    leadThanks: 'Thank you! We will be in touch.',
  },
  fr: {
    openChat: (bot, unread) => `Ouvrir la discussion avec ${bot}${unread > 0 ? ` (${unread} non lu${unread > 1 ? 's' : ''})` : ''}`,
    hideChat: 'Masquer la discussion',
    closeChat: 'Fermer la discussion',
    launcherOpen: 'Discuter',
    launcherHide: 'Masquer',
    takeover: 'Une personne de l’équipe a rejoint la conversation et vous répondra ici.',
    leaveDetails: 'Laisser vos coordonnées',
    bookMeeting: 'Prendre rendez-vous',
    conversation: 'Conversation',
    said: (who) => `${who} : `,
    you: 'Vous',
    team: 'Équipe',
    writing: 'Réponse en cours de rédaction',
    sources: 'Sources',
    wasHelpful: 'Cette réponse vous a-t-elle été utile ?',
    helpful: 'Utile',
    notHelpful: 'Pas utile',
    tryAgain: 'Réessayer',
    failures: {
      quota: 'Cet assistant a répondu à tous les messages qu’il pouvait pour le moment. Veuillez réessayer plus tard.',
      answer: 'Désolé, une erreur s’est produite pendant la réponse.',
      offline: 'Le message n’a pas pu être envoyé : vous semblez être hors ligne.',
      busy: 'Vous envoyez des messages très rapidement. Veuillez patienter un instant.',
      refused: 'Cette discussion n’est pas disponible sur cette page.',
    },
    file: 'Fichier',
    sending: (percent) => `Envoi… ${percent} %`,
    sendingFile: (name) => `Envoi de ${name}`,
    sent: 'Envoyé',
    uploadFailed: 'Le fichier n’a pas pu être envoyé.',
    uploadOffline: 'Le fichier n’a pas pu être envoyé : la connexion a échoué.',
    typeRefused: (allowed) => `Ce type de fichier ne peut pas être envoyé. Types acceptés : ${allowed}`,
    tooLarge: (size, limit) => `Ce fichier fait ${size} ; la limite est de ${limit}.`,
    emptyFile: 'Ce fichier est vide.',
    fileSize: sizeIn(['o', 'ko', 'Mo'], true),
    attach: 'Joindre un fichier',
    yourMessage: 'Votre message',
    placeholder: 'Écrivez un message…',
    send: 'Envoyer le message',
    leadTitle: 'Laissez vos coordonnées et nous vous recontacterons',
    leadFields: { name: 'Nom', email: 'E-mail', phone: 'Téléphone' },
    leadFailed: 'Vos coordonnées n’ont pas pu être envoyées. Veuillez réessayer.',
    leadInvalid: {
      email: 'Veuillez saisir une adresse e-mail valide.',
      phone: 'Veuillez saisir un numéro de téléphone valide, par exemple +44 20 7946 0958.',
    },
    leadContactNeeded: 'Veuillez indiquer une adresse e-mail ou un numéro de téléphone.',
    notNow: 'Pas maintenant',
    sendDetails: 'Envoyer mes coordonnées',
    leadThanks: 'Merci ! Nous vous recontacterons.',
  },
  de: {
    openChat: (bot, unread) => `Chat mit ${bot} öffnen${unread > 0 ? ` (${unread} neu)` : ''}`,
    hideChat: 'Chat ausblenden',
    closeChat: 'Chat schließen',
    launcherOpen: 'Chat',
    launcherHide: 'Ausblenden',
    takeover: 'Eine Person aus dem Team ist dem Gespräch beigetreten und antwortet Ihnen hier.',
    leaveDetails: 'Kontaktdaten hinterlassen',
    bookMeeting: 'Termin buchen',
    conversation: 'Unterhaltung',
    said: (who) => `${who}: `,
    you: 'Sie',
    team: 'Team',
    writing: 'Antwort wird geschrieben',
    sources: 'Quellen',
    wasHelpful: 'War diese Antwort hilfreich?',
    helpful: 'Hilfreich',
    notHelpful: 'Nicht hilfreich',
    tryAgain: 'Erneut versuchen',
    failures: {
      quota: 'Dieser Assistent hat vorerst alle Nachrichten beantwortet, die er beantworten kann. Bitte versuchen Sie es später noch einmal.',
      answer: 'Leider ist beim Antworten ein Fehler aufgetreten.',
      offline: 'Die Nachricht konnte nicht gesendet werden: Sie scheinen offline zu sein.',
      busy: 'Sie senden sehr schnell Nachrichten. Bitte warten Sie einen Moment.',
      refused: 'Dieser Chat ist auf dieser Seite nicht verfügbar.',
    },
    file: 'Datei',
    sending: (percent) => `Wird gesendet … ${percent} %`,
    sendingFile: (name) => `${name} wird gesendet`,
    sent: 'Gesendet',
    uploadFailed: 'Die Datei konnte nicht gesendet werden.',
    uploadOffline: 'Die Datei konnte nicht gesendet werden: Die Verbindung ist fehlgeschlagen.',
    typeRefused: (allowed) => `Dieser Dateityp kann nicht gesendet werden. Erlaubt: ${allowed}`,
    tooLarge: (size, limit) => `Diese Datei ist ${size} groß; die Grenze liegt bei ${limit}.`,
    emptyFile: 'Diese Datei ist leer.',
    fileSize: metric,
    attach: 'Datei anhängen',
    yourMessage: 'Ihre Nachricht',
    placeholder: 'Nachricht schreiben …',
    send: 'Nachricht senden',
    leadTitle: 'Hinterlassen Sie Ihre Kontaktdaten, wir melden uns bei Ihnen',
    leadFields: { name: 'Name', email: 'E-Mail', phone: 'Telefon' },
    leadFailed: 'Ihre Kontaktdaten konnten nicht gesendet werden. Bitte versuchen Sie es erneut.',
    leadInvalid: {
      email: 'Bitte geben Sie eine gültige E-Mail-Adresse ein.',
      phone: 'Bitte geben Sie eine gültige Telefonnummer ein, zum Beispiel +44 20 7946 0958.',
    },
    leadContactNeeded: 'Bitte geben Sie eine E-Mail-Adresse oder eine Telefonnummer an.',
    notNow: 'Nicht jetzt',
    sendDetails: 'Daten senden',
    leadThanks: 'Vielen Dank! Wir melden uns bei Ihnen.',
  },
  es: {
    openChat: (bot, unread) => `Abrir el chat con ${bot}${unread > 0 ? ` (${unread} nuevo${unread > 1 ? 's' : ''})` : ''}`,
    hideChat: 'Ocultar el chat',
    closeChat: 'Cerrar el chat',
    launcherOpen: 'Chat',
    launcherHide: 'Ocultar',
    takeover: 'Una persona del equipo se ha unido a la conversación y le responderá aquí.',
    leaveDetails: 'Dejar sus datos',
    bookMeeting: 'Reservar una cita',
    conversation: 'Conversación',
    said: (who) => `${who}: `,
    you: 'Usted',
    team: 'Equipo',
    writing: 'Escribiendo una respuesta',
    sources: 'Fuentes',
    wasHelpful: '¿Le ha resultado útil esta respuesta?',
    helpful: 'Útil',
    notHelpful: 'No es útil',
    tryAgain: 'Intentar de nuevo',
    failures: {
      quota: 'Este asistente ha respondido a todos los mensajes que puede por ahora. Vuelva a intentarlo más tarde.',
      answer: 'Lo sentimos, algo ha fallado al responder.',
      offline: 'No se ha podido enviar el mensaje: parece que no tiene conexión.',
      busy: 'Está enviando mensajes muy rápido. Espere un momento.',
      refused: 'Este chat no está disponible en esta página.',
    },
    file: 'Archivo',
    sending: (percent) => `Enviando… ${percent} %`,
    sendingFile: (name) => `Enviando ${name}`,
    sent: 'Enviado',
    uploadFailed: 'No se ha podido enviar el archivo.',
    uploadOffline: 'No se ha podido enviar el archivo: la conexión ha fallado.',
    typeRefused: (allowed) => `Este tipo de archivo no se puede enviar. Permitidos: ${allowed}`,
    tooLarge: (size, limit) => `Este archivo ocupa ${size}; el límite es de ${limit}.`,
    emptyFile: 'Este archivo está vacío.',
    fileSize: metric,
    attach: 'Adjuntar un archivo',
    yourMessage: 'Su mensaje',
    placeholder: 'Escriba un mensaje…',
    send: 'Enviar mensaje',
    leadTitle: 'Déjenos sus datos y nos pondremos en contacto con usted',
    leadFields: { name: 'Nombre', email: 'Correo electrónico', phone: 'Teléfono' },
    leadFailed: 'No se han podido enviar sus datos. Inténtelo de nuevo.',
    leadInvalid: {
      email: 'Introduzca una dirección de correo electrónico válida.',
      phone: 'Introduzca un número de teléfono válido, por ejemplo +44 20 7946 0958.',
    },
    leadContactNeeded: 'Indique una dirección de correo electrónico o un número de teléfono.',
    notNow: 'Ahora no',
    sendDetails: 'Enviar datos',
    leadThanks: '¡Gracias! Nos pondremos en contacto con usted.',
  },
  pt: {
    openChat: (bot, unread) => `Abrir a conversa com ${bot}${unread > 0 ? ` (${unread} nova${unread > 1 ? 's' : ''})` : ''}`,
    hideChat: 'Ocultar a conversa',
    closeChat: 'Fechar a conversa',
    launcherOpen: 'Conversar',
    launcherHide: 'Ocultar',
    takeover: 'Uma pessoa da equipa juntou-se à conversa e vai responder aqui.',
    leaveDetails: 'Deixar os seus contactos',
    bookMeeting: 'Marcar uma reunião',
    conversation: 'Conversa',
    said: (who) => `${who}: `,
    you: 'Você',
    team: 'Equipa',
    writing: 'A escrever uma resposta',
    sources: 'Fontes',
    wasHelpful: 'Esta resposta foi útil?',
    helpful: 'Útil',
    notHelpful: 'Não foi útil',
    tryAgain: 'Tentar novamente',
    failures: {
      quota: 'Este assistente já respondeu a todas as mensagens que pode por agora. Tente novamente mais tarde.',
      answer: 'Desculpe, algo correu mal ao responder.',
      offline: 'Não foi possível enviar a mensagem: parece estar sem ligação.',
      busy: 'Está a enviar mensagens muito depressa. Aguarde um momento.',
      refused: 'Esta conversa não está disponível nesta página.',
    },
    file: 'Ficheiro',
    sending: (percent) => `A enviar… ${percent} %`,
    sendingFile: (name) => `A enviar ${name}`,
    sent: 'Enviado',
    uploadFailed: 'Não foi possível enviar o ficheiro.',
    uploadOffline: 'Não foi possível enviar o ficheiro: a ligação falhou.',
    typeRefused: (allowed) => `Este tipo de ficheiro não pode ser enviado. Permitidos: ${allowed}`,
    tooLarge: (size, limit) => `Este ficheiro tem ${size}; o limite é ${limit}.`,
    emptyFile: 'Este ficheiro está vazio.',
    fileSize: metric,
    attach: 'Anexar um ficheiro',
    yourMessage: 'A sua mensagem',
    placeholder: 'Escreva uma mensagem…',
    send: 'Enviar mensagem',
    leadTitle: 'Deixe os seus contactos e entraremos em contacto consigo',
    leadFields: { name: 'Nome', email: 'E-mail', phone: 'Telefone' },
    leadFailed: 'Não foi possível enviar os seus contactos. Tente novamente.',
    leadInvalid: {
      email: 'Introduza um endereço de e-mail válido.',
      phone: 'Introduza um número de telefone válido, por exemplo +44 20 7946 0958.',
    },
    leadContactNeeded: 'Indique um endereço de e-mail ou um número de telefone.',
    notNow: 'Agora não',
    sendDetails: 'Enviar contactos',
    leadThanks: 'Obrigado! Entraremos em contacto consigo.',
  },
  it: {
    openChat: (bot, unread) => `Apri la chat con ${bot}${unread > 0 ? ` (${unread} ${unread > 1 ? 'nuovi' : 'nuovo'})` : ''}`,
    hideChat: 'Nascondi la chat',
    closeChat: 'Chiudi la chat',
    launcherOpen: 'Chat',
    launcherHide: 'Nascondi',
    takeover: 'Una persona del team si è unita alla conversazione e le risponderà qui.',
    leaveDetails: 'Lasci i suoi recapiti',
    bookMeeting: 'Prenoti un appuntamento',
    conversation: 'Conversazione',
    said: (who) => `${who}: `,
    you: 'Lei',
    team: 'Team',
    writing: 'Risposta in corso di scrittura',
    sources: 'Fonti',
    wasHelpful: 'Questa risposta è stata utile?',
    helpful: 'Utile',
    notHelpful: 'Non utile',
    tryAgain: 'Riprova',
    failures: {
      quota: 'Per ora questo assistente ha risposto a tutti i messaggi che poteva. Riprovi più tardi.',
      answer: 'Spiacenti, si è verificato un errore durante la risposta.',
      offline: 'Non è stato possibile inviare il messaggio: sembra che la connessione non sia disponibile.',
      busy: 'Sta inviando messaggi molto rapidamente. Attenda un momento.',
      refused: 'Questa chat non è disponibile su questa pagina.',
    },
    file: 'File',
    sending: (percent) => `Invio… ${percent}%`,
    sendingFile: (name) => `Invio di ${name}`,
    sent: 'Inviato',
    uploadFailed: 'Non è stato possibile inviare il file.',
    uploadOffline: 'Non è stato possibile inviare il file: la connessione non è riuscita.',
    typeRefused: (allowed) => `Questo tipo di file non può essere inviato. Consentiti: ${allowed}`,
    tooLarge: (size, limit) => `Questo file è di ${size}; il limite è di ${limit}.`,
    emptyFile: 'Questo file è vuoto.',
    fileSize: metric,
    attach: 'Allega un file',
    yourMessage: 'Il suo messaggio',
    placeholder: 'Scriva un messaggio…',
    send: 'Invia il messaggio',
    leadTitle: 'Lasci i suoi recapiti e la ricontatteremo',
    leadFields: { name: 'Nome', email: 'E-mail', phone: 'Telefono' },
    leadFailed: 'Non è stato possibile inviare i suoi recapiti. Riprovi.',
    leadInvalid: {
      email: 'Inserisca un indirizzo e-mail valido.',
      phone: 'Inserisca un numero di telefono valido, ad esempio +44 20 7946 0958.',
    },
    leadContactNeeded: 'Indichi un indirizzo e-mail o un numero di telefono.',
    notNow: 'Non ora',
    sendDetails: 'Invia i recapiti',
    leadThanks: 'Grazie! La ricontatteremo presto.',
  },
};

/** The language of a tag (`de-AT` → `de`) when the widget speaks it. */
function spoken(tag: string | undefined): WidgetLanguage | undefined {
  const primary = (tag ?? '').trim().toLowerCase().split(/[-_]/)[0];
  return WIDGET_LANGUAGES.find((language) => language === primary);
}

/**
 * The language of the widget's words: the bot's `response_language` when the widget speaks it,
 * else the first of the browser's languages (`navigator.languages`, most preferred first) it
 * speaks, else English.
 */
export function chooseLanguage(responseLanguage: string, browserLanguages: readonly string[]): WidgetLanguage {
  return spoken(responseLanguage) ?? browserLanguages.map(spoken).find((language) => language !== undefined) ?? 'en';
}
