/** The fixed phrases of `parley-local` in each language it speaks. */

/** A language `parley-local` has phrases for (ISO 639-1). */
export type PhraseLanguage = 'en' | 'es' | 'fr' | 'de' | 'pt' | 'it';

/** Every language with phrases, English (the fallback) first. */
export const PHRASE_LANGUAGES: readonly PhraseLanguage[] = ['en', 'es', 'fr', 'de', 'pt', 'it'];

/** The sentences the engine writes itself rather than quoting the knowledge. */
export interface Phrases {
  /** Reply to a greeting when the bot has no welcome message. */
  greeting: string;
  /** Reply to thanks. */
  thanks: string;
  /** Reply to a goodbye. */
  goodbye: string;
  /** Reply to an acknowledgement ("ok", "great", "got it"). */
  acknowledgement: string;
  /** Reply to a request for a person ("can I talk to a human?"). */
  human: string;
  /** Reply to "who are you?", "are you a bot?": what the visitor is talking to. */
  identity: (botName: string) => string;
  /** Refusal when nothing in the knowledge answers the question. */
  dontKnow: string;
  /** Added to the refusal when strict mode is off. */
  invite: string;
  /** Added to `human` and `invite` when the bot captures leads, which keeps the details left. */
  leaveContact: string;
  /** Line before quoted list items, naming the source. */
  leadIn: (title: string) => string;
}

/** All phrases, by language. */
export const PHRASES: Record<PhraseLanguage, Phrases> = {
  en: {
    greeting: 'Hello! How can I help you today?',
    thanks: "You're welcome! Is there anything else I can help you with?",
    goodbye: 'Goodbye, and thanks for stopping by!',
    acknowledgement: 'All right! Is there anything else I can help you with?',
    human: 'Of course. Our team can see this conversation and can reply to you here.',
    identity: (bot) => `I'm ${bot}'s virtual assistant, an automated helper that answers from ${bot}'s own information. What would you like to know?`,
    dontKnow: "I'm sorry, I don't know the answer to that.",
    invite: 'Could you rephrase your question?',
    leaveContact: 'You can also leave your email address or phone number, and our team will get back to you.',
    leadIn: (title) => `Here is what I found in “${title}”:`,
  },
  es: {
    greeting: '¡Hola! ¿En qué puedo ayudarle hoy?',
    thanks: '¡De nada! ¿Hay algo más en lo que pueda ayudarle?',
    goodbye: '¡Adiós, y gracias por su visita!',
    acknowledgement: '¡Perfecto! ¿Hay algo más en lo que pueda ayudarle?',
    human: 'Por supuesto. Nuestro equipo puede ver esta conversación y responderle aquí.',
    identity: (bot) => `Soy el asistente virtual de ${bot}, un ayudante automático que responde con la información de ${bot}. ¿Qué le gustaría saber?`,
    dontKnow: 'Lo siento, no sé la respuesta a esa pregunta.',
    invite: '¿Podría reformular su pregunta?',
    leaveContact: 'También puede dejar su correo electrónico o su número de teléfono y nuestro equipo se pondrá en contacto con usted.',
    leadIn: (title) => `Esto es lo que encontré en «${title}»:`,
  },
  fr: {
    greeting: 'Bonjour ! Comment puis-je vous aider aujourd’hui ?',
    thanks: 'Je vous en prie ! Puis-je vous aider pour autre chose ?',
    goodbye: 'Au revoir, et merci de votre visite !',
    acknowledgement: 'Très bien ! Puis-je vous aider pour autre chose ?',
    human: 'Bien sûr. Notre équipe voit cette conversation et peut vous répondre ici.',
    identity: (bot) => `Je suis l’assistant virtuel de ${bot}, un assistant automatique qui répond à partir des informations de ${bot}. Que souhaitez-vous savoir ?`,
    dontKnow: 'Désolé, je ne connais pas la réponse à cette question.',
    invite: 'Pourriez-vous reformuler votre question ?',
    leaveContact: 'Vous pouvez aussi laisser votre adresse e-mail ou votre numéro de téléphone, et notre équipe vous recontactera.',
    leadIn: (title) => `Voici ce que j’ai trouvé dans « ${title} » :`,
  },
  de: {
    greeting: 'Hallo! Wie kann ich Ihnen heute helfen?',
    thanks: 'Gern geschehen! Kann ich Ihnen sonst noch helfen?',
    goodbye: 'Auf Wiedersehen und danke für Ihren Besuch!',
    acknowledgement: 'Alles klar! Kann ich Ihnen sonst noch helfen?',
    human: 'Gern. Unser Team sieht dieses Gespräch und kann Ihnen hier antworten.',
    identity: (bot) => `Ich bin der virtuelle Assistent von ${bot}, ein automatischer Helfer, der mit den Informationen von ${bot} antwortet. Was möchten Sie wissen?`,
    dontKnow: 'Das tut mir leid, darauf weiß ich keine Antwort.',
    invite: 'Könnten Sie Ihre Frage anders formulieren?',
    leaveContact: 'Sie können auch Ihre E-Mail-Adresse oder Telefonnummer hinterlassen, dann meldet sich unser Team bei Ihnen.',
    leadIn: (title) => `Das habe ich in „${title}“ gefunden:`,
  },
  pt: {
    greeting: 'Olá! Como posso ajudar hoje?',
    thanks: 'De nada! Posso ajudar em mais alguma coisa?',
    goodbye: 'Até logo, e obrigado pela visita!',
    acknowledgement: 'Combinado! Posso ajudar em mais alguma coisa?',
    human: 'Com certeza. A nossa equipa vê esta conversa e pode responder-lhe aqui.',
    identity: (bot) => `Sou o assistente virtual de ${bot}, um assistente automático que responde com a informação de ${bot}. O que gostaria de saber?`,
    dontKnow: 'Desculpe, não sei a resposta para essa pergunta.',
    invite: 'Poderia reformular a sua pergunta?',
    leaveContact: 'Também pode deixar o seu e-mail ou telefone, e a nossa equipa entrará em contacto consigo.',
    leadIn: (title) => `Eis o que encontrei em «${title}»:`,
  },
  it: {
    greeting: 'Ciao! Come posso aiutarla oggi?',
    thanks: 'Prego! Posso aiutarla in qualcos’altro?',
    goodbye: 'Arrivederci, e grazie per la visita!',
    acknowledgement: 'Perfetto! Posso aiutarla in qualcos’altro?',
    human: 'Certo. Il nostro team vede questa conversazione e può risponderle qui.',
    identity: (bot) => `Sono l’assistente virtuale di ${bot}, un aiuto automatico che risponde con le informazioni di ${bot}. Cosa desidera sapere?`,
    dontKnow: 'Mi dispiace, non conosco la risposta a questa domanda.',
    invite: 'Potrebbe riformulare la domanda?',
    leaveContact: 'Può anche lasciare il suo indirizzo e-mail o numero di telefono e il nostro team la ricontatterà.',
    leadIn: (title) => `Ecco cosa ho trovato in «${title}»:`,
  },
};

/** Whether a reply is the engine's refusal, in any of its languages. */
export function isRefusalText(text: string): boolean {
  return Object.values(PHRASES).some((phrases) => text.startsWith(phrases.dontKnow));
}
