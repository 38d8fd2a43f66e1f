/**
 * Recognising messages that are only small talk (greetings, thanks, goodbyes, acknowledgements, questions
 * about the assistant itself, requests for a person) in the six phrase
 * languages. A greeting followed by a question is a question.
 */
import type { PhraseLanguage } from './phrases.ts';

/** What a small-talk message is, and the language its words belong to (null when shared). */
export interface SmallTalk {
  kind: 'greeting' | 'thanks' | 'goodbye' | 'identity' | 'acknowledgement' | 'human';
  language: PhraseLanguage | null;
}

type Kind = SmallTalk['kind'];

// Written without diacritics: messages are compared folded.
const EXPRESSIONS: [Kind, PhraseLanguage | null, string[]][] = [
  ['greeting', 'en', ['hi', 'hello', 'hey', 'hiya', 'howdy', 'greetings', 'good morning', 'good afternoon', 'good evening', 'good day', 'yo', 'hi there', 'hello there', 'hey there', 'how are you', 'how are you doing', 'how is it going', 'hows it going', 'how is your day', 'hows your day', 'how is your day going', 'hows your day going', 'whats up', 'sup']],
  ['greeting', 'es', ['hola', 'buenos dias', 'buenas tardes', 'buenas noches', 'buenas', 'que tal', 'como estas', 'como esta']],
  ['greeting', 'fr', ['bonjour', 'bonsoir', 'salut', 'coucou', 'ca va', 'comment allez vous', 'comment ca va']],
  ['greeting', 'de', ['hallo', 'guten morgen', 'guten tag', 'guten abend', 'servus', 'moin', 'gruss gott', 'gruezi', 'wie geht es ihnen', 'wie gehts']],
  ['greeting', 'pt', ['ola', 'oi', 'bom dia', 'boa tarde', 'boa noite', 'tudo bem']],
  ['greeting', 'it', ['ciao', 'buongiorno', 'buonasera', 'salve', 'come sta', 'come stai']],
  ['thanks', 'en', ['youre very helpful', 'you are very helpful', 'youre helpful', 'you are helpful', 'youve been very helpful', 'you have been very helpful', 'thanks', 'thank you', 'thx', 'ty', 'cheers', 'thanks a lot', 'thank you so much', 'thank you very much', 'many thanks', 'much appreciated', 'appreciate it', 'i appreciate it']],
  ['thanks', 'es', ['gracias', 'muchas gracias', 'mil gracias', 'se lo agradezco', 'muy amable', 'gracias por la ayuda', 'gracias por tu ayuda']],
  ['thanks', 'fr', ['merci', 'merci beaucoup', 'merci bien', 'je vous remercie', 'merci pour votre aide', 'merci pour ton aide', 'tres aimable']],
  ['thanks', 'de', ['danke', 'danke schon', 'danke sehr', 'vielen dank', 'besten dank', 'danke fur die hilfe', 'danke fur ihre hilfe', 'sehr nett']],
  ['thanks', 'pt', ['obrigado', 'obrigada', 'muito obrigado', 'muito obrigada', 'valeu', 'muito gentil', 'obrigado pela ajuda', 'obrigada pela ajuda']],
  ['thanks', 'it', ['grazie', 'grazie mille', 'molte grazie', 'la ringrazio', 'gentilissimi', 'gentilissimo', 'gentilissima', 'molto gentile', 'grazie per l aiuto']],
  ['goodbye', 'en', ['bye', 'goodbye', 'good bye', 'bye bye', 'see you', 'see you later', 'see you soon', 'see ya', 'take care', 'have a nice day', 'have a good day', 'have a great day', 'have a good one', 'good night', 'later', 'farewell', 'bye for now', 'bye now', 'talk later', 'talk to you later', 'ttyl', 'thats all for now', 'that is all for now', 'thats everything', 'nothing more']],
  ['identity', 'en', ['who are you', 'who am i talking to', 'who am i talking with', 'who am i chatting with', 'who am i chatting to', 'are you a bot', 'are you a robot', 'are you human', 'are you a human', 'are you a real person', 'is this a real person', 'is this a bot', 'is this a real person im talking to', 'am i talking to a bot', 'am i talking to a real person', 'whats your name', 'what is your name']],
  ['identity', 'es', ['quien eres', 'quien es usted', 'eres un bot', 'eres un robot', 'eres una persona', 'eres una persona real', 'como te llamas', 'con quien estoy hablando', 'con quien hablo', 'eres humano', 'eres un humano']],
  ['identity', 'fr', ['qui etes vous', 'qui es tu', 'etes vous un robot', 'es tu un robot', 'etes vous un bot', 'es tu un bot', 'etes vous une vraie personne', 'comment vous appelez vous', 'tu es un robot', 'tu es un bot', 'vous etes un robot', 'vous etes un bot', 'c est un robot', 'cest un robot', 'a qui je parle', 'je parle a qui', 'etes vous humain', 'tu es humain']],
  ['identity', 'de', ['wer bist du', 'wer sind sie', 'bist du ein bot', 'sind sie ein bot', 'bist du ein roboter', 'sind sie ein roboter', 'bist du ein mensch', 'sind sie ein mensch', 'wie heisst du', 'mit wem spreche ich', 'mit wem schreibe ich', 'bist du echt', 'sind sie echt']],
  ['identity', 'pt', ['quem es tu', 'quem e voce', 'es um bot', 'e um bot', 'es um robo', 'e um robo', 'es uma pessoa real', 'e uma pessoa real', 'como te chamas', 'voce e um robo', 'voce e um bot', 'voce e uma pessoa real', 'voce e humano', 'com quem estou falando', 'com quem falo', 'vc e um robo', 'vc e um bot', 'voce e real']],
  ['identity', 'it', ['chi sei', 'chi e lei', 'sei un bot', 'sei un robot', 'sei una persona vera', 'sei una persona reale', 'come ti chiami', 'sei umano', 'sei un essere umano', 'con chi sto parlando', 'con chi parlo']],
  // Asking for help without saying with what yet: a greeting, answered by the welcome message.
  ['greeting', 'en', ['can you help me', 'can you help', 'could you help me', 'i need help', 'i have a question', 'i have a few questions', 'is anyone there', 'anyone there', 'is someone there']],
  ['greeting', 'es', ['puedes ayudarme', 'me puede ayudar', 'me puedes ayudar', 'necesito ayuda', 'tengo una pregunta', 'hay alguien']],
  ['greeting', 'fr', ['pouvez vous m aider', 'peux tu m aider', 'j ai une question', 'jai une question', 'il y a quelqu un', 'besoin d aide']],
  ['greeting', 'de', ['kannst du mir helfen', 'konnen sie mir helfen', 'ich habe eine frage', 'ich brauche hilfe', 'ist jemand da']],
  ['greeting', 'pt', ['pode me ajudar', 'podes ajudar me', 'tenho uma pergunta', 'preciso de ajuda', 'tem alguem ai']],
  ['greeting', 'it', ['puoi aiutarmi', 'puo aiutarmi', 'ho una domanda', 'ho bisogno di aiuto', 'ce qualcuno']],
  ['identity', 'en', ['what can you do', 'what can you help me with', 'what can you help with', 'what do you do', 'is this a robot', 'are you an ai', 'are you ai', 'is this ai', 'is this a human', 'am i talking to a human', 'am i talking to a person']],
  // Chit-chat aimed at the assistant rather than the business: it says who it is and what it can do.
  ['identity', 'en', ['tell me a joke', 'tell me something funny', 'do you like your job', 'how old are you', 'are you happy', 'do you have feelings', 'what are you', 'where are you from', 'whats the weather like', 'what is the weather like', 'whats the weather', 'i love you', 'do you love me']],
  ['identity', 'es', ['cuentame un chiste', 'dime un chiste', 'que tiempo hace', 'cuantos anos tienes', 'de donde eres']],
  ['identity', 'fr', ['raconte moi une blague', 'dis moi une blague', 'quel temps fait il', 'quel age as tu', 'tu viens d ou']],
  ['identity', 'de', ['erzahl mir einen witz', 'erzahlen sie mir einen witz', 'wie ist das wetter', 'wie alt bist du', 'woher kommst du']],
  ['identity', 'pt', ['conta me uma piada', 'me conta uma piada', 'como esta o tempo', 'quantos anos tens', 'quantos anos voce tem']],
  ['identity', 'it', ['raccontami una barzelletta', 'dimmi una barzelletta', 'che tempo fa', 'quanti anni hai', 'di dove sei']],
  ['acknowledgement', 'en', ['ok', 'okay', 'k', 'cool', 'great', 'got it', 'alright', 'all right', 'sounds good', 'understood', 'i see', 'makes sense', 'noted', 'sure', 'nice', 'perfect', 'awesome', 'nice one', 'excellent', 'brilliant', 'wonderful', 'fantastic', 'lol', 'haha', 'good to know', 'fair enough', 'no worries']],
  ['acknowledgement', 'es', ['vale', 'entendido', 'de acuerdo', 'perfecto', 'entiendo', 'genial', 'estupendo', 'excelente', 'muy bien', 'buenisimo', 'ya veo', 'ya entiendo', 'ok entendido']],
  ['acknowledgement', 'fr', ['d accord', 'daccord', 'entendu', 'compris', 'parfait', 'tres bien', 'genial', 'excellent', 'nickel', 'top', 'je vois', 'je comprends', 'ok je vois']],
  ['acknowledgement', 'de', ['alles klar', 'verstanden', 'gut', 'perfekt', 'in ordnung', 'prima', 'toll', 'klasse', 'sehr gut', 'super', 'alles gut', 'verstehe', 'ich verstehe', 'ich sehe', 'aha']],
  ['acknowledgement', 'pt', ['entendi', 'certo', 'combinado', 'beleza', 'perfeito', 'tudo certo', 'otimo', 'excelente', 'legal', 'muito bem', 'entendo', 'percebi', 'ja entendi']],
  ['acknowledgement', 'it', ['va bene', 'capito', 'perfetto', 'daccordo', 'd accordo', 'benissimo', 'certo', 'ottimo', 'eccellente', 'fantastico', 'molto bene', 'capisco', 'ho capito', 'vedo']],
  // Asking for a person: the reply says the team sees the conversation and can answer in it.
  ['human', 'en', ['human', 'a human', 'a human being', 'real person', 'a real person', 'an agent', 'a live agent', 'live agent', 'talk to a human', 'speak to a human', 'talk to a person', 'speak to a person', 'talk to a real person', 'speak to a real person', 'talk to someone', 'speak to someone', 'talk to an agent', 'speak to an agent', 'speak with an agent', 'talk with a human', 'speak with a human', 'talk with a person', 'speak with a person', 'talk with someone', 'speak with someone', 'is there a human', 'is there a real person', 'someone from your team', 'a member of staff', 'a staff member']],
  ['human', 'es', ['hablar con una persona', 'hablar con alguien', 'hablar con un humano', 'hablar con un agente', 'hablar con una persona real', 'una persona real', 'un humano', 'un agente']],
  ['human', 'fr', ['parler a quelquun', 'parler a une personne', 'parler a un humain', 'parler a un conseiller', 'parler a un agent', 'une vraie personne', 'un humain', 'un conseiller']],
  ['human', 'de', ['mit einem menschen sprechen', 'mit jemandem sprechen', 'mit einem mitarbeiter sprechen', 'mit einer person sprechen', 'mit einem echten menschen sprechen', 'einen menschen sprechen', 'einem mitarbeiter', 'einer mitarbeiterin', 'einem menschen']],
  ['human', 'pt', ['falar com uma pessoa', 'falar com alguem', 'falar com um humano', 'falar com um atendente', 'uma pessoa real', 'um atendente', 'um humano']],
  ['human', 'it', ['parlare con una persona', 'parlare con qualcuno', 'parlare con un operatore', 'parlare con un umano', 'una persona vera', 'un operatore', 'un umano']],
  // More ways of saying the same, in the words people type in a chat box.
  ['greeting', 'en', ['anyone around', 'anybody there', 'anybody around', 'someone there', 'anyone here']],
  ['greeting', 'es', ['alguien por ahi', 'hay alguien ahi', 'buen dia']],
  ['greeting', 'fr', ['y a quelquun', 'quelquun']],
  ['greeting', 'de', ['jemand da', 'gruezi mitenand', 'griass di', 'hoi']],
  ['greeting', 'pt', ['alguem ai', 'tem alguem']],
  ['greeting', 'it', ['qualcuno']],
  ['thanks', 'en', ['thank u', 'thnks', 'thnx', 'thanx', 'tnx', 'helpful', 'thanks for the help', 'thanks for your help']],
  ['thanks', 'es', ['me has ayudado', 'me ha ayudado', 'me ayudaste', 'me ayudo', 'muy util']],
  ['thanks', 'fr', ['vous mavez aide', 'vous mavez bien aide', 'tu mas aide', 'tres utile']],
  ['thanks', 'de', ['geholfen', 'merci vielmal', 'danke vielmal', 'sehr hilfreich', 'hilfreich']],
  ['thanks', 'pt', ['ajudou', 'obrigadissimo', 'obrigadissima', 'muito util']],
  ['thanks', 'it', ['utile', 'utili', 'mi siete stati utili', 'mi e stato utile']],
  ['goodbye', 'en', ['cya', 'gotta go', 'got to go', 'gtg', 'i have to go', 'i must go']],
  ['goodbye', 'es', ['me tengo que ir', 'chau']],
  ['goodbye', 'fr', ['je dois y aller']],
  ['goodbye', 'de', ['pfiat di', 'ciao zusammen', 'ade', 'tschau']],
  ['goodbye', 'pt', ['ate a proxima', 'ate amanha', 'tenha um bom dia', 'tenha uma boa tarde']],
  ['goodbye', 'it', ['alla prossima', 'a dopo']],
  ['acknowledgement', 'en', ['yes', 'yeah', 'yep', 'yup', 'roger', 'ok then', 'alright then']],
  ['acknowledgement', 'es', ['dale', 'si', 'claro', 'ok vale', 'va']],
  ['acknowledgement', 'fr', ['oui', 'ca marche', 'ok ca marche', 'pas de souci', 'pas de probleme']],
  ['acknowledgement', 'de', ['ja', 'passt', 'jo', 'macht sinn', 'okay danke', 'ach so']],
  ['acknowledgement', 'pt', ['sim', 'ta bom', 'ta', 'pronto', 'fechado', 'ok entendi']],
  ['acknowledgement', 'it', ['si', 'ok allora', 'va benissimo']],
  ['human', 'en', ['connect me with an agent', 'connect me to an agent', 'connect me with a human', 'connect me to a human', 'connect me with someone', 'transfer me to an agent', 'transfer me to a human', 'put me through to someone', 'a real human']],
  ['human', 'es', ['pasame con alguien', 'pasame con un humano', 'pasame con una persona', 'pasame con un agente', 'alguien de verdad', 'una persona de verdad']],
  ['human', 'fr', ['un agent', 'parler a une vraie personne', 'mettez moi en relation', 'mettre en relation', 'une personne reelle']],
  ['human', 'de', ['mit einem menschen reden', 'mit einem echten menschen reden', 'mit jemandem reden', 'mit nem menschen sprechen', 'mit nem menschen reden', 'nem menschen', 'echten menschen', 'verbinden sie mich']],
  ['human', 'pt', ['me passa pra um humano', 'me passa para um humano', 'falar com um colaborador', 'um colaborador', 'uma pessoa de verdade', 'gente de verdade']],
  ['human', 'it', ['un operatore umano', 'mi passi un operatore', 'una persona reale']],
  // "A bot or a person?": one question about what it is, not a request for a person.
  ['identity', 'en', ['a bot or a real person', 'a bot or a person', 'a bot or a human', 'bot or human', 'a robot or a person', 'a robot or a human', 'r u a bot', 'are u a bot', 'r u human', 'is this automated', 'automated', 'is this ai', 'an ai']],
  ['identity', 'es', ['esto es automatico', 'es automatico', 'un bot o una persona real', 'un bot o una persona', 'un bot o un humano', 'sos un bot', 'automatico', 'automatica', 'eres una ia']],
  ['identity', 'fr', ['un robot ou une vraie personne', 'un bot ou une vraie personne', 'un bot ou un humain', 'tes un robot', 't es un robot', 'tes un bot', 'automatique', 'une ia', 'vous etes une ia', 'es tu une ia']],
  ['identity', 'de', ['ein bot oder ein mensch', 'bot oder mensch', 'automatisch', 'eine ki', 'einer ki', 'bist du eine ki', 'mit wem schreibe ich gerade']],
  ['identity', 'pt', ['isso e automatico', 'um bot ou uma pessoa', 'bot ou gente de verdade', 'e bot', 'com quem estou a falar', 'automatico', 'automatica', 'uma ia']],
  ['identity', 'it', ['un bot o un umano', 'un bot o una persona', 'automatico', 'automatica', 'un ia', 'un intelligenza artificiale']],
  // Ending the conversation without a goodbye word.
  ['goodbye', 'en', ['no thanks', 'no thank you', 'thats all', 'that is all', 'nothing else', 'im good', 'i am good', 'thats it', 'that is it']],
  ['goodbye', 'es', ['adios', 'hasta luego', 'hasta pronto', 'hasta manana', 'chao', 'nos vemos', 'eso es todo', 'es todo', 'nada mas', 'eso seria todo']],
  ['goodbye', 'fr', ['au revoir', 'a bientot', 'bonne journee', 'bonne soiree', 'a plus', 'c est tout', 'cest tout', 'rien d autre', 'ce sera tout']],
  ['goodbye', 'de', ['tschuss', 'auf wiedersehen', 'bis bald', 'bis spater', 'schonen tag', 'schonen tag noch', 'schones wochenende', 'bis dann', 'das wars', 'das war es', 'das ist alles', 'nichts weiter', 'mehr nicht']],
  ['goodbye', 'pt', ['tchau', 'adeus', 'ate logo', 'ate mais', 'ate breve', 'era so isso', 'e so isso', 'so isso', 'e tudo', 'mais nada', 'so isso mesmo']],
  ['goodbye', 'it', ['arrivederci', 'a presto', 'buona giornata', 'buona serata', 'e tutto', 'nient altro', 'a posto cosi', 'tutto qui', 'ciao ciao']],
  ...askingWhatItIs(),
  ...askingForAPerson(),
  // Wishes for the rest of the day or the weekend end a conversation.
  ['goodbye', 'en', ['have a nice evening', 'have a good evening', 'have a nice weekend', 'have a good weekend', 'enjoy your day', 'enjoy your weekend']],
  ['goodbye', 'es', ['que tenga buen dia', 'que tengas buen dia', 'que tenga un buen dia', 'que tengas un buen dia', 'buen fin de semana', 'feliz dia', 'eso era todo']],
  ['goodbye', 'fr', ['bonne fin de journee', 'bon week end', 'bonne fin de semaine', 'bonne nuit']],
  ['goodbye', 'de', ['schonen abend', 'schonen abend noch', 'schones wochenende noch', 'tschussi', 'tschusi', 'bis zum nachsten mal']],
  ['goodbye', 'pt', ['bom fim de semana', 'boa semana', 'tenha uma boa noite', 'fica bem', 'fique bem']],
  ['goodbye', 'it', ['buon fine settimana', 'buona notte', 'buonanotte', 'buona giornata a lei']],
  // Everyday forms the lists above lack.
  ['greeting', 'es', ['que onda', 'q onda', 'que hubo', 'saludos']],
  ['greeting', 'fr', ['allo', 'bonjour a tous', 'salut a tous']],
  ['greeting', 'pt', ['tudo bom', 'e ai', 'eai', 'oi tudo bem', 'ola tudo bem']],
  ['greeting', 'it', ['salve a tutti', 'buongiorno a tutti', 'buonasera a tutti']],
  ['thanks', 'en', ['ta very much', 'thank you kindly', 'thanks kindly', 'many many thanks']],
  ['thanks', 'es', ['grasias', 'muchas grasias', 'gracias totales', 'te lo agradezco']],
  ['thanks', 'fr', ['merci infiniment', 'merci mille fois', 'mille mercis', 'merci bcp']],
  ['thanks', 'pt', ['obg', 'brigado', 'brigada', 'vlw', 'agradeco']],
  ['thanks', 'it', ['grazie infinite', 'grz', 'ti ringrazio', 'vi ringrazio', 'grazie tante']],
  ['acknowledgement', 'en', ['sounds great', 'sounds perfect', 'super', 'top']],
  ['acknowledgement', 'fr', ['dacc', 'j ai compris', 'jai compris', 'c est beau', 'cest beau', 'c est note', 'cest note', 'super']],
  ['acknowledgement', 'pt', ['esta bem', 'ta certo', 'blz', 'show', 'tranquilo']],
  ['acknowledgement', 'es', ['listo', 'de una', 'ok perfecto', 'super']],
  ['acknowledgement', 'it', ['ok perfetto', 'tutto chiaro', 'super']],
];

/**
 * "Am I talking to an AI?" in the words of each language: the ways of asking who is on the other
 * end, each with each name for a machine.
 */
function askingWhatItIs(): [Kind, PhraseLanguage, string[]][] {
  const asking: Record<PhraseLanguage, [string[], string[]]> = {
    en: [
      ['am i talking to', 'am i talking with', 'am i chatting with', 'am i chatting to', 'am i speaking to', 'am i speaking with', 'is this', 'are you', 'r u', 'are u'],
      ['an ai', 'ai', 'a machine', 'a chatbot', 'a computer', 'a program', 'an automated system', 'a bot', 'a robot', 'an artificial intelligence'],
    ],
    es: [
      ['hablo con', 'estoy hablando con', 'estoy chateando con', 'eres', 'es usted', 'esto es'],
      ['una ia', 'una inteligencia artificial', 'una maquina', 'un chatbot', 'un programa', 'un bot', 'un robot'],
    ],
    fr: [
      ['je parle a', 'suis je en train de parler a', 'est ce que je parle a', 'je discute avec', 'es tu', 'etes vous', 'tu es', 'vous etes', 'c est', 'cest'],
      ['une ia', 'une intelligence artificielle', 'une machine', 'un chatbot', 'un programme', 'un bot', 'un robot'],
    ],
    de: [
      ['rede ich mit', 'spreche ich mit', 'schreibe ich mit', 'chatte ich mit', 'rede ich hier mit', 'spreche ich hier mit', 'schreibe ich hier mit', 'bist du', 'sind sie', 'ist das'],
      ['einer ki', 'eine ki', 'einer kunstlichen intelligenz', 'einer maschine', 'eine maschine', 'einem chatbot', 'ein chatbot', 'einem bot', 'ein bot', 'einem roboter', 'ein roboter', 'einem programm', 'ein programm'],
    ],
    pt: [
      ['estou a falar com', 'estou falando com', 'falo com', 'estou conversando com', 'es', 'e', 'voce e', 'vc e', 'isto e', 'isso e'],
      ['uma ia', 'uma inteligencia artificial', 'uma maquina', 'um chatbot', 'um programa', 'um bot', 'um robo'],
    ],
    it: [
      ['sto parlando con', 'parlo con', 'sto chattando con', 'sei', 'e', 'lei e'],
      ['un ia', 'una ia', 'un intelligenza artificiale', 'una intelligenza artificiale', 'una macchina', 'un chatbot', 'un programma', 'un bot', 'un robot'],
    ],
  };
  return crossed('identity', asking);
}

/** "Can you put me through to an operator?": the ways of asking for a person, each with each name for one. */
function askingForAPerson(): [Kind, PhraseLanguage, string[]][] {
  const asking: Record<PhraseLanguage, [string[], string[]]> = {
    en: [
      ['talk to', 'speak to', 'speak with', 'talk with', 'chat with', 'connect me to', 'connect me with', 'transfer me to', 'put me through to', 'get me'],
      ['an operator', 'a human', 'a person', 'a real person', 'an agent', 'someone', 'somebody', 'a representative', 'a rep', 'customer service', 'support', 'staff'],
    ],
    es: [
      ['hablar con', 'me pasas con', 'pasame con', 'me pasa con', 'me comunicas con', 'comunicarme con', 'quiero hablar con', 'necesito hablar con'],
      ['un operador', 'una operadora', 'un agente', 'una persona', 'un humano', 'alguien', 'un asesor', 'una asesora', 'atencion al cliente'],
    ],
    fr: [
      ['parler a', 'parler avec', 'passez moi', 'mettez moi en contact avec', 'je veux parler a', 'je voudrais parler a'],
      ['un operateur', 'une operatrice', 'un agent', 'un conseiller', 'une conseillere', 'une personne', 'un humain', 'quelqu un', 'quelquun', 'le service client'],
    ],
    de: [
      ['mit', 'sprechen mit', 'reden mit', 'verbinden sie mich mit', 'ich mochte mit', 'kann ich mit'],
      ['einem mitarbeiter', 'einer mitarbeiterin', 'einem menschen', 'einem echten menschen', 'nem echten menschen', 'einer person', 'jemandem', 'dem kundendienst', 'einem berater', 'einer beraterin'],
    ],
    pt: [
      ['falar com', 'quero falar com', 'queria falar com', 'me passa para', 'me passa pra', 'me transfere para'],
      ['um operador', 'uma operadora', 'um atendente', 'uma atendente', 'uma pessoa', 'um humano', 'alguem', 'um assistente', 'o suporte'],
    ],
    it: [
      ['parlare con', 'vorrei parlare con', 'voglio parlare con', 'mi passi', 'mi passa'],
      ['un operatore', 'un operatrice', 'una persona', 'un umano', 'qualcuno', 'un consulente', 'l assistenza'],
    ],
  };
  return crossed('human', asking);
}

/** Every way of asking followed by every name, per language, as expressions of `kind`. */
function crossed(kind: Kind, table: Record<PhraseLanguage, [string[], string[]]>): [Kind, PhraseLanguage, string[]][] {
  return Object.entries(table).map(([language, [ways, names]]) => [kind, language as PhraseLanguage, ways.flatMap((way) => names.map((name) => `${way} ${name}`))]);
}

// Words that may surround small talk without making it a question.
const FILLER = new Set(
  `there everyone all team folks guys friend bot again so much very lot a lots great good perfect awesome cool nice ok
  okay that helps helped helpful was is it s this the for your help right alright fine oh ah well thats really super
  brilliant excellent wonderful amazing sir madam mate buddy y e et und and muito molto mucho beaucoup tout todo por su
  sua la ayuda aide hilfe ajuda aiuto you today fixed needed i vale dir ihnen tanto tante mille genial perfecto parfait
  perfekt prima perfeito perfetto o ou or pela pelo per pour votre fur deine ihre vostro tuo can could want would like
  need id please to quiero puedo podria gustaria je voudrais veux peux ich mochte kann konnte eu quero posso gostaria
  vorrei voglio from with now just quick clear fast answer reply response bitte favor plait favore queria quisiera
  voulais wollte volevo me mi te ti replies c est ist es era tres muy sehr claro clair klar chiaro rapide rapida
  schnelle rapido schnell antwort respuesta reponse resposta risposta die le ajudou ayudo bastante viel oder robot
  roboter robo ai ia ki mensch humano human humain umano real reale vera echt vraie vrai ein un une um uma una an del de
  du des dem der il cest ca repondre responder rispondere antworten youve been earlier before then pls plz svp
  wait talk speak chat connect transfer through put lo antes monton verdad no con moi heure l relation avec
  furs erste sie haben mir hast mich hier im bin gerade demais ha bocado tenha isso pra passa siete stati di
  ora allora passi ce cui parlare hablar falar parler reden sprechen hey u esto das mit foi sil vous
  laide lheure laiuto messaggio mensaje message nachricht mensagem
  zusammen miteinand allerseits tutti monde tt todos todas everybody y all kindly patience impecavel
  porfa pf pfv prendre relais take over hier noch nochmal reden seu`.split(/\s+/),
);

const OR_WORDS = new Set(['or', 'o', 'ou', 'oder']);

const LEXICON = new Map<string, { kind: Kind; language: PhraseLanguage | null }>();
const LONGEST = Math.max(...EXPRESSIONS.flatMap(([, , list]) => list.map((e) => e.split(' ').length)));
for (const [kind, language, list] of EXPRESSIONS) {
  for (const expression of list) {
    const known = LEXICON.get(expression);
    // The same word in two languages ("ciao", "buenas") gives no language hint.
    LEXICON.set(expression, known && known.language !== language ? { kind, language: null } : { kind, language });
  }
}

// Typed in a hurry: "graciass", "thankss", "byee" are found with their doubled letters made single.
const squeeze = (text: string) => text.replace(/(\p{L})\1+/gu, '$1');
const SQUEEZED = new Map([...LEXICON].map(([expression, entry]) => [squeeze(expression), entry]));

function foldWord(word: string): string {
  return word.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

function fold(text: string): string[] {
  return (text.replace(/[’']/g, '').match(/[\p{L}\p{M}\p{N}]+/gu) ?? []).map(foldWord);
}

/** The length of the small-talk expression starting at token i (0 when none). */
function expressionAt(tokens: string[], i: number): { size: number; kind: Kind; language: PhraseLanguage | null } | null {
  for (let size = Math.min(LONGEST, tokens.length - i); size > 0; size--) {
    const words = tokens.slice(i, i + size).join(' ');
    const entry = LEXICON.get(words) ?? SQUEEZED.get(squeeze(words));
    if (entry) return { size, ...entry };
  }
  return null;
}

/** The message without a leading greeting ("Hi! Do you ship to Japan?" → "Do you ship to Japan?"). */
export function stripGreeting(message: string): string {
  const found = [...message.replace(/[’']/g, ' ').matchAll(/[\p{L}\p{M}\p{N}]+/gu)];
  const tokens = found.map((m) => foldWord(m[0]));
  let i = 0;
  let end = 0;
  while (i < tokens.length) {
    const expression = expressionAt(tokens, i);
    if (!expression || expression.kind !== 'greeting') break;
    i += expression.size;
    const last = found[i - 1]!;
    end = last.index! + last[0].length;
  }
  const rest = message.slice(end).replace(/^[\s,.!?¡¿;:—–-]+/u, '');
  return rest.trim() ? rest : message;
}

/** The small talk a message consists of, or null when it says anything more (a question, a request). */
export function recogniseSmallTalk(message: string, botName = ''): SmallTalk | null {
  const tokens = fold(message);
  if (tokens.length === 0 || tokens.length > 12) return null;
  const nameWords = new Set(fold(botName));
  const kinds = new Set<Kind>();
  let language: PhraseLanguage | null = null;
  let i = 0;
  while (i < tokens.length) {
    const expression = expressionAt(tokens, i);
    if (expression) {
      // "Are you a bot or a real person?" asks what it is; it does not ask for a person.
      const asksWhich = expression.kind === 'human' && kinds.has('identity') && i > 0 && OR_WORDS.has(tokens[i - 1]!);
      kinds.add(asksWhich ? 'identity' : expression.kind);
      // "ok" and "bye" are English words written in every language: another language's words decide.
      if (expression.language && (language === null || language === 'en')) language = expression.language;
      i += expression.size;
    }
    else if (FILLER.has(tokens[i]!) || nameWords.has(tokens[i]!)) i++;
    else return null;
  }
  if (kinds.size === 0) return null;
  const kind: Kind = kinds.has('human')
    ? 'human'
    : kinds.has('identity')
    ? 'identity'
    : kinds.has('goodbye')
      ? 'goodbye'
      : kinds.has('thanks')
        ? 'thanks'
        : kinds.has('greeting')
          ? 'greeting'
          : 'acknowledgement';
  return { kind, language };
}
