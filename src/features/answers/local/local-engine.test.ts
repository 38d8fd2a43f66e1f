import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AnswerBot, AnswerRequest, RetrievedPassage, Retriever } from '../answers.types.ts';
import { createLocalEngine } from './local-engine.ts';
import { PHRASES } from './phrases.ts';
import { languageOfTag } from './language.ts';
import { splitSentences, splitUnits } from './sentences.ts';
import { expectedKind } from './scoring.ts';
import { contentTerms, searchWords, termOf, weightedTerms } from './text.ts';
import { isFollowUp } from './query.ts';
import { englishWordsFor } from './lexicon.ts';
import { recogniseSmallTalk } from './small-talk.ts';

/** A tiny term-overlap retriever: enough to unit-test the engine (real retrieval is tested with knowledge). */
function stubRetriever(passages: Omit<RetrievedPassage, 'score' | 'passageId' | 'sourceId'>[]): Retriever & { queries: string[] } {
  const queries: string[] = [];
  const words = (s: string) => new Set(s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
  return {
    queries,
    async search(_botId, query, limit) {
      queries.push(query);
      const q = words(query);
      return passages
        .map((p, i) => {
          const w = words(`${p.sourceTitle} ${p.heading} ${p.text}`);
          let score = 0;
          for (const t of q) if (w.has(t)) score++;
          return { ...p, passageId: `p${i}`, sourceId: `s-${p.sourceTitle}`, score };
        })
        .filter((p) => p.score > 0)
        .sort((a, b) => b.score - a.score)
        .slice(0, limit);
    },
  };
}

const KNOWLEDGE = [
  {
    sourceTitle: 'Returns',
    sourceUrl: 'https://help.example.com/returns',
    heading: 'Returns > The return window',
    text: 'You have 30 days from the delivery date to start a return. The item must be unused, with its original packaging. Club members have 60 days.',
  },
  {
    sourceTitle: 'Shipping',
    sourceUrl: '',
    heading: 'Shipping > Costs',
    text: 'Standard shipping costs $7.95 for orders under $50. Orders to Canada cost $19 to ship with DHL Express.',
  },
  {
    sourceTitle: 'Shipping',
    sourceUrl: '',
    heading: 'Shipping > Delivery times',
    text: 'Standard delivery takes 3 to 7 business days. Expedited delivery takes 2 to 3 business days and costs $19.95.',
  },
  {
    sourceTitle: 'Security',
    sourceUrl: '',
    heading: 'Security > Codes',
    text: 'Backup codes such as KX-4421-Q work once. Generate new codes in Account > Security.',
  },
];

const BOT: AnswerBot = {
  id: 'bot-1',
  name: 'Helper',
  welcome_message: 'Welcome to Example Shop! Ask me anything.',
  selected_model: 'parley-local',
  system_instructions: '',
  response_language: '',
  strict_mode: true,
  lead_capture_enabled: false,
};

type StubPassage = Omit<RetrievedPassage, 'score' | 'passageId' | 'sourceId'>;

/** Asks the engine over `knowledge` (the shop's passages unless given) and reads the whole reply. */
async function ask(question: string, { knowledge = KNOWLEDGE, ...options }: Partial<Omit<AnswerRequest, 'bot'>> & { bot?: Partial<AnswerBot>; knowledge?: StubPassage[] } = {}) {
  const retriever = stubRetriever(knowledge);
  const engine = createLocalEngine({ retriever });
  const stream = await engine.answer({ history: [], ...options, question, bot: { ...BOT, ...options.bot } });
  const chunks: string[] = [];
  for await (const chunk of stream.chunks) chunks.push(chunk);
  return { text: chunks.join(''), chunks, sources: stream.sources(), engine: stream.engine, language: stream.language, queries: retriever.queries };
}

describe('parley-local answers', () => {
  test('quotes the answering sentence verbatim and cites its source', async () => {
    const answer = await ask('How many days do I have to send an item back?');
    assert.equal(answer.engine, 'parley-local');
    assert.match(answer.text, /You have 30 days from the delivery date to start a return\./);
    assert.deepEqual(answer.sources[0], { title: 'Returns', url: 'https://help.example.com/returns' });
  });

  test('keeps numbers and codes unchanged and gives text sources an empty url', async () => {
    const shipping = await ask('What does standard shipping cost?');
    assert.match(shipping.text, /Standard shipping costs \$7\.95 for orders under \$50\./);
    assert.deepEqual(shipping.sources, [{ title: 'Shipping', url: '' }]);
    const codes = await ask('How often can a backup code be used?');
    assert.match(codes.text, /KX-4421-Q/);
  });

  test('leads with the answering sentence and leaves out the unrelated ones of its passage', async () => {
    const shop: StubPassage = {
      sourceTitle: 'Shop',
      sourceUrl: '',
      heading: '',
      text: 'Standard shipping takes 3 to 5 business days and is free on orders over $60. Express delivery arrives the next business day and costs $12. Our store at 12 Market Street is open Monday to Saturday from 9 am to 7 pm.',
    };
    const { text } = await ask('When are you open on the weekend?', { knowledge: [shop] });
    assert.match(text, /^Our store at 12 Market Street is open Monday to Saturday/);
    assert.doesNotMatch(text, /shipping|delivery/i);
  });

  test('a long, chatty question is answered though most of its words are in no document', async () => {
    const long = await ask("I ordered a pair of trail shoes for my husband's birthday last week and sadly they don't fit him at all, how many days do we have to start a return?");
    assert.ok(long.text.includes('You have 30 days from the delivery date to start a return.'), long.text);
    assert.equal(long.sources[0]?.title, 'Returns');
  });

  test('asked whether something is offered, it refuses when the knowledge shares words but never names it', async () => {
    const wrapping = await ask('Do you offer gift wrapping on shipping orders?');
    assert.equal(wrapping.text, PHRASES.en.dontKnow);
    assert.deepEqual(wrapping.sources, []);
    // The same in the other languages, for renting and selling too ("Est-ce que vous louez…").
    const gear = [{ sourceTitle: 'Tents', sourceUrl: '', heading: 'Tents > Camping', text: 'Our tents are made for camping weekends and come with a two-year warranty.' }];
    const renting = await ask('Est-ce que vous louez des tentes pour un week-end de camping ?', { knowledge: gear });
    assert.equal(renting.text, PHRASES.fr.dontKnow);
  });

  test('shoes that do not fit are sent back: the return and refund policies answer', async () => {
    const shop: StubPassage[] = [
      { sourceTitle: 'Help', sourceUrl: '', heading: 'Help > Returns', text: 'You can return shoes and clothing within 45 days of delivery, unworn and with their tags.' },
      { sourceTitle: 'Help', sourceUrl: '', heading: 'Help > Refunds', text: 'Refunds are issued to your original payment method within 5 business days of receiving your return.' },
      { sourceTitle: 'Help', sourceUrl: '', heading: 'Help > Store hours', text: 'Our store is open Monday to Saturday from 9 am to 7 pm.' },
    ];
    const { text } = await ask('Can I get my money back if the shoes do not fit?', { knowledge: shop });
    assert.match(text, /within 45 days of delivery/);
  });

  test('"Can I get my money back?" asks for a refund, not whether something is offered', async () => {
    const shop: StubPassage[] = [
      { sourceTitle: 'Refunds', sourceUrl: '', heading: 'Refunds > Getting your money back', text: 'You can get a refund for shoes that do not fit within 45 days of delivery.' },
      { sourceTitle: 'Gift cards', sourceUrl: '', heading: 'Gift cards', text: 'Gift cards can be used in our stores and online.' },
    ];
    const refund = await ask('Can I get my money back if the shoes do not fit?', { knowledge: shop });
    assert.match(refund.text, /refund for shoes that do not fit within 45 days/);
    // Asking whether a thing is offered still needs the knowledge to name it.
    const offered = await ask('Can I get a gift wrap for the shoes?', { knowledge: shop });
    assert.equal(offered.text, PHRASES.en.dontKnow);
  });

  test('streams the answer in several chunks', async () => {
    const answer = await ask('How long does expedited delivery take?');
    assert.ok(answer.chunks.length > 2, `chunks: ${answer.chunks.length}`);
    assert.match(answer.text, /Expedited delivery takes 2 to 3 business days and costs \$19\.95\./);
  });

  test('refuses when nothing answers the question, inviting a rephrase only when not strict', async () => {
    const strict = await ask('What is the top speed of your electric scooter?');
    assert.equal(strict.text, PHRASES.en.dontKnow);
    assert.deepEqual(strict.sources, []);
    const relaxed = await ask('What is the top speed of your electric scooter?', { bot: { strict_mode: false } });
    assert.equal(relaxed.text, `${PHRASES.en.dontKnow} ${PHRASES.en.invite}`);
    assert.deepEqual(relaxed.sources, []);
  });

  test('invites contact details only when lead capture keeps them', async () => {
    const withLeads = { bot: { strict_mode: false, lead_capture_enabled: true } };
    assert.equal((await ask('What is the top speed of your electric scooter?', withLeads)).text, `${PHRASES.en.dontKnow} ${PHRASES.en.invite} ${PHRASES.en.leaveContact}`);
    assert.equal((await ask('Can I talk to a human?', withLeads)).text, `${PHRASES.en.human} ${PHRASES.en.leaveContact}`);
    assert.equal((await ask('Quiero hablar con una persona', withLeads)).text, `${PHRASES.es.human} ${PHRASES.es.leaveContact}`);
    // Without it, nothing would keep them: the visitor is told the team replies here.
    for (const reply of [(await ask('Can I talk to a human?')).text, (await ask('What is the top speed of your electric scooter?', { bot: { strict_mode: false } })).text]) {
      assert.doesNotMatch(reply, /email|phone/i);
    }
  });

  test('answers greetings with the welcome message, and thanks and goodbyes politely', async () => {
    for (const greeting of ['hi', 'Hello there!', 'hola', 'bonjour', 'hallo', 'olá', 'ciao', 'good morning']) {
      const answer = await ask(greeting);
      assert.equal(answer.text, BOT.welcome_message, greeting);
      assert.deepEqual(answer.sources, []);
      assert.deepEqual(answer.queries, [], 'small talk does not search');
    }
    // Where the visitor has seen the welcome message (the widget opens on it), a greeting is not answered with it again.
    assert.equal((await ask('hi', { welcomeShown: true })).text, PHRASES.en.greeting);
    assert.equal((await ask('bonjour', { welcomeShown: true })).text, PHRASES.fr.greeting);
    assert.equal((await ask('thanks a lot!')).text, PHRASES.en.thanks);
    assert.equal((await ask('bye, see you later')).text, PHRASES.en.goodbye);
    assert.equal((await ask('merci beaucoup')).text, PHRASES.fr.thanks);
    assert.equal((await ask('gracias')).text, PHRASES.es.thanks);
  });

  test('answers acknowledgements, requests for help and questions about itself without searching', async () => {
    for (const [message, reply] of [
      ['ok great', PHRASES.en.acknowledgement],
      ['Got it!', PHRASES.en.acknowledgement],
      ['vale', PHRASES.es.acknowledgement],
      ["d'accord", PHRASES.fr.acknowledgement],
      ['alles klar', PHRASES.de.acknowledgement],
      ['obrigado pela ajuda', PHRASES.pt.thanks],
      ['Can you help me?', BOT.welcome_message],
      ['hello, is anyone there?', BOT.welcome_message],
      ['What can you do?', PHRASES.en.identity(BOT.name)],
      ['Awesome, you have been very helpful', PHRASES.en.thanks],
      ['Ottimo', PHRASES.it.acknowledgement],
      ['Schönen Tag noch!', PHRASES.de.goodbye],
      ['Você é um robô?', PHRASES.pt.identity(BOT.name)],
      ['Tell me a joke!', PHRASES.en.identity(BOT.name)],
      ['Raconte-moi une blague', PHRASES.fr.identity(BOT.name)],
      ['Can I talk to a human?', PHRASES.en.human],
      ['Quiero hablar con una persona', PHRASES.es.human],
      ['No thanks, that is all', PHRASES.en.goodbye],
      // A courtesy around it, letters doubled in a hurry, or "ok" before another language's words.
      ['Gracias, muy amable', PHRASES.es.thanks],
      ['thankss!!', PHRASES.en.thanks],
      ['ok, ich verstehe', PHRASES.de.acknowledgement],
      ["c'est tout, merci", PHRASES.fr.goodbye],
      ['Posso parlare con un operatore, per favore?', PHRASES.it.human],
      ['Bist du ein Mensch oder ein Bot?', PHRASES.de.identity(BOT.name)],
      // As typed in a chat box: "a bot or a real person" asks what it is, "hello?? anyone around" greets.
      ['wait r u a bot or a real person', PHRASES.en.identity(BOT.name)],
      ['sei un bot o un umano?', PHRASES.it.identity(BOT.name)],
      ['hello?? anyone around', BOT.welcome_message],
      ['connect me with an agent please', PHRASES.en.human],
      ['bitte verbinden Sie mich mit einem Mitarbeiter', PHRASES.de.human],
      ["vous m'avez bien aidé, merci", PHRASES.fr.thanks],
      ['valeu, ajudou demais', PHRASES.pt.thanks],
      ['dale', PHRASES.es.acknowledgement],
      ['gotta go, take care', PHRASES.en.goodbye],
      ['esto es automático?', PHRASES.es.identity(BOT.name)],
    ] as const) {
      const answer = await ask(message);
      assert.equal(answer.text, reply, message);
      assert.deepEqual(answer.queries, [], `${message}: small talk does not search`);
    }
    const question = await ask('ok, and what does standard shipping cost?');
    assert.match(question.text, /Standard shipping costs \$7\.95/);
    // "For one person?" counts guests; it does not ask for a person.
    for (const message of ['Pour une personne ?', 'Per una persona?', 'For a person?']) assert.equal(recogniseSmallTalk(message), null, message);
    // Who is on the other end, asked with any of each language's names for a machine; a person asked
    // for with any name for one.
    for (const [message, kind] of [
      ['am i chatting with a chatbot??', 'identity'],
      ['Rede ich hier mit einer Maschine?', 'identity'],
      ['estou falando com uma inteligência artificial?', 'identity'],
      ['me pasas con un asesor porfa', 'human'],
      ['vorrei parlare con un consulente', 'human'],
      ['buongiorno a tutti', 'greeting'],
      ['Adiós, que tengas buen día', 'goodbye'],
    ] as const) assert.equal(recogniseSmallTalk(message)?.kind, kind, message);
    for (const message of ['am i talking to a chatbot that knows the prices?', 'vorrei parlare con un consulente del prezzo']) assert.equal(recogniseSmallTalk(message), null, message);
    const wrapped = await ask('Thanks so much, and what does expedited delivery cost?');
    assert.match(wrapped.text, /Expedited delivery takes 2 to 3 business days and costs \$19\.95\./);
  });

  test('treats a greeting followed by a question as a question', async () => {
    const answer = await ask('Hi! How many days do I have to start a return?');
    assert.match(answer.text, /30 days from the delivery date/);
    assert.equal(answer.sources[0]?.title, 'Returns');
  });

  test('answers both halves of two questions joined by "and"', async () => {
    const answer = await ask('How long does expedited delivery take and what does standard shipping cost?');
    assert.match(answer.text, /Expedited delivery takes 2 to 3 business days/);
    assert.match(answer.text, /Standard shipping costs \$7\.95/);
  });

  test('a question that opens with "and" is a follow-up up to fourteen words', () => {
    const history = [
      { role: 'user' as const, content: 'How much is a hygiene cleaning?' },
      { role: 'assistant' as const, content: 'A hygiene cleaning is $110.' },
    ];
    assert.equal(isFollowUp('And if I get my check-up done at the same time?', history), true);
    assert.equal(isFollowUp('And one more thing: what is the address of the clinic where you do the implants for new patients?', history), false);
  });

  test("a follow-up's own words outweigh the longer question it follows", async () => {
    const history = [
      { role: 'user' as const, content: 'What does standard shipping cost for small orders under $50 with the regular carrier?' },
      { role: 'assistant' as const, content: 'Standard shipping costs $7.95 for orders under $50.' },
    ];
    const answer = await ask("And if I'm in Canada?", { history });
    assert.ok(answer.text.startsWith('Orders to Canada cost $19 to ship with DHL Express.'), answer.text);
  });

  test('refuses the second of two joined questions when it leans on a first that nothing answers', async () => {
    const answer = await ask('Do you offer gift wrapping, and how much does it cost?');
    assert.equal(answer.text, PHRASES.en.dontKnow);
  });

  test('uses the previous user turn for a follow-up', async () => {
    const history = [
      { role: 'user' as const, content: 'How long does standard delivery take?' },
      { role: 'assistant' as const, content: 'Standard delivery takes 3 to 7 business days.' },
    ];
    const answer = await ask('and expedited?', { history });
    assert.match(answer.text, /Expedited delivery takes 2 to 3 business days/);
    assert.match(answer.queries[0]!, /delivery/, 'the search carries the earlier turn');
    const alone = await ask('and expedited?');
    assert.ok(!alone.queries[0]?.includes('standard'));
  });

  test("reads a follow-up's topic from the assistant's previous reply too", async () => {
    const support = { sourceTitle: 'Support', sourceUrl: '', heading: 'Support', text: 'Our support team answers chats from 8:00 to 20:00, Monday to Friday.' };
    const history = [
      { role: 'user' as const, content: 'How do I get help?' },
      { role: 'assistant' as const, content: 'Click the ? icon to chat with our support team.' },
    ];
    const { text } = await ask('What hours are they around?', { history, knowledge: [...KNOWLEDGE, support] });
    assert.match(text, /8:00 to 20:00/);
    // A refusal names no topic: its words stay out of the search.
    const afterRefusal = await ask('and in the rain?', {
      history: [
        { role: 'user', content: 'What is the top speed of your scooter?' },
        { role: 'assistant', content: PHRASES.en.dontKnow },
      ],
    });
    assert.match(afterRefusal.queries[0]!, /scooter/);
    assert.doesNotMatch(afterRefusal.queries[0]!, /sorry|know|answer/);
  });

  test('writes its phrases in the forced response language', async () => {
    const spanish = await ask('What is the top speed of your electric scooter?', { bot: { response_language: 'es' } });
    assert.equal(spanish.text, PHRASES.es.dontKnow);
    const override = await ask('thanks', { bot: { response_language: 'de' }, responseLanguage: 'pt-BR' });
    assert.equal(override.text, PHRASES.pt.thanks);
    const unknown = await ask('thanks', { bot: { response_language: 'ja' } });
    assert.equal(unknown.text, PHRASES.en.thanks);
  });

  test("mirrors the visitor's detected language when none is forced", async () => {
    const french = await ask("Quelle est la vitesse maximale de votre trottinette électrique, s'il vous plaît ?");
    assert.equal(french.text, PHRASES.fr.dontKnow);
    const german = await ask('Wie schnell fährt Ihr elektrischer Roller höchstens?', { bot: { strict_mode: false } });
    assert.equal(german.text, `${PHRASES.de.dontKnow} ${PHRASES.de.invite}`);
    const short = await ask('ok?');
    assert.equal(short.text, PHRASES.en.acknowledgement);
    const shortQuestion = await ask('Speed of scooter?');
    assert.equal(shortQuestion.text, PHRASES.en.dontKnow);
  });

  test('a short message English lacks the words for is answered in the language of the knowledge it reaches', async () => {
    const workshop = [{ sourceTitle: 'Werkstatt', sourceUrl: '', heading: 'Werkstatt > Preise', text: 'Die Werkstatt berechnet 68 € pro Stunde. Ein Kostenvoranschlag ist kostenlos.' }];
    const reply = async (question: string) => {
      const { text, language } = await ask(question, { knowledge: workshop });
      return { text, language };
    };
    // "Werkstatt" finds the German passage, which does not say whether there are gift vouchers.
    assert.deepEqual(await reply('Werkstatt Gutschein?'), { text: PHRASES.de.dontKnow, language: 'de' });
    // English words stay English whatever the knowledge's language.
    assert.deepEqual(await reply('Gift card for the Werkstatt?'), { text: PHRASES.en.dontKnow, language: 'en' });
  });

  test('a French question matches the knowledge through French stems ("arriver" and "arrivée")', async () => {
    const hotel = [
      { sourceTitle: 'Restaurant', sourceUrl: '', heading: 'Restaurant > Horaires', text: "Le petit-déjeuner est servi entre 7 h 00 et 10 h 30 dans la véranda de l'hôtel." },
      { sourceTitle: 'Chambres', sourceUrl: '', heading: 'Chambres > Horaires', text: "Les chambres de l'hôtel sont prêtes dès 15 h 00 le jour de votre arrivée." },
    ];
    const { text } = await ask("À quelle heure peut-on arriver à l'hôtel ?", { knowledge: hotel });
    assert.ok(text.startsWith("Les chambres de l'hôtel sont prêtes dès 15 h 00 le jour de votre arrivée."), text);
  });

  test('a question in another language finds an English help centre through the concepts both name', async () => {
    const saas = [
      { sourceTitle: 'Billing', sourceUrl: '', heading: 'Billing > Free trial', text: 'Every new account can try the Team plan free for 14 days, without a card.' },
      { sourceTitle: 'Billing', sourceUrl: '', heading: 'Billing > Refunds', text: 'Yearly plans can be refunded within 30 days of payment.' },
      { sourceTitle: 'Security', sourceUrl: '', heading: 'Security > Passwords', text: 'Passwords need at least 12 characters.' },
    ];
    for (const question of ['Wie lange dauert die kostenlose Testphase?', "Combien de temps dure l'essai gratuit ?", '¿Cuánto dura la prueba gratis?']) {
      const { text, queries } = await ask(question, { knowledge: saas });
      assert.ok(text.includes('free for 14 days'), `${question}: ${text}`);
      assert.match(queries[0]!, /\btrial\b/);
    }
  });

  test("a question in another language is read through its lexicon: any listed word in the sense the knowledge uses, a German compound's last part, a phrase", async () => {
    const billing = [
      { sourceTitle: 'Billing', sourceUrl: '', heading: 'Billing > Refunds', text: 'A yearly subscription gets a full refund within 30 days of the first payment.' },
      { sourceTitle: 'Billing', sourceUrl: '', heading: 'Billing > Invoices', text: 'Invoices for every payment are sent by email to the account owner.' },
      { sourceTitle: 'Offline', sourceUrl: '', heading: 'Offline > Train journeys', text: 'The app works without a connection: changes are kept on the phone and sent once you are back online.' },
    ];
    // "Jahresabo" is "Abo" (a subscription) to the lexicon, "Geld zurück" a refund.
    const refund = await ask('Wir haben vor zwei Wochen das Jahresabo bezahlt. Bekommen wir unser Geld zurück?', { knowledge: billing });
    assert.ok(refund.text.includes('full refund within 30 days'), refund.text);
    assert.match(refund.queries[0]!, /\bsubscription\b/);
    // "funciona" and "conexión" are lexicon words; "aplicación" may mean an application or the
    // enforcement of a rule, and is read as the word the knowledge uses: "app".
    const offline = await ask('¿La aplicación funciona sin conexión?', { knowledge: billing });
    assert.ok(offline.text.includes('kept on the phone'), offline.text);
  });

  test('an English question finds knowledge written in another language through the lexicon', async () => {
    const hotel = [
      { sourceTitle: 'Infos pratiques', sourceUrl: '', heading: 'Infos pratiques > Départ', text: 'Le départ se fait avant 11 h 00. Vous pouvez laisser vos bagages à la réception jusqu’à 22 h 00.' },
      { sourceTitle: 'Infos pratiques', sourceUrl: '', heading: 'Infos pratiques > Animaux', text: 'Les chiens sont les bienvenus pour un supplément de 12,00 € par nuit.' },
    ];
    // "checkout" and "dog" are in no French passage: the first search finds nothing, the second
    // searches their translations ("départ", "chien") and the question is scored in French.
    const checkout = await ask('What time is checkout?', { knowledge: hotel });
    assert.ok(checkout.text.includes('Le départ se fait avant 11 h 00.'), checkout.text);
    assert.equal(checkout.language, 'en');
    const dog = await ask('Can we bring our dog? How much extra is it?', { knowledge: hotel });
    assert.ok(dog.text.includes('12,00 €'), dog.text);
    assert.match(dog.queries.at(-1)!, /\bchien\b/);
  });

  test('a visitor’s word meets the word help centres use for it, learnt from question and answer pairs ("nicked" and "stolen")', async () => {
    const security = [
      { sourceTitle: 'Security', sourceUrl: '', heading: 'Security > Devices', text: 'If a device is stolen, sign out of it remotely from Settings > Devices and change your password.' },
      { sourceTitle: 'Security', sourceUrl: '', heading: 'Security > Sessions', text: 'Sessions on a shared device end after 30 minutes without activity.' },
    ];
    const { text } = await ask('Somebody nicked my device, what now?', { knowledge: security });
    assert.ok(text.startsWith('If a device is stolen'), text);
  });

  test('a word of another language that English lacks meets its English cognate ("automatisch", "automatically")', async () => {
    const billing = [
      { sourceTitle: 'Receipts', sourceUrl: '', heading: 'Receipts > Editing', text: 'Receipts can be edited until the client has paid them in full.' },
      { sourceTitle: 'Receipts', sourceUrl: '', heading: 'Receipts > Sending', text: 'Receipts are sent automatically on the first day of each month.' },
    ];
    const { text } = await ask('Kommen die Rechnungen jeden Monat automatisch?', { knowledge: billing });
    assert.ok(text.startsWith('Receipts are sent automatically'), text);
  });

  test('a later sentence of a list item is quoted with the item’s first, which names its subject', async () => {
    const team = [
      {
        sourceTitle: 'About us',
        sourceUrl: '',
        heading: 'About us > Our team',
        text: '- **Dr. Amara Okafor, DDS**: Clinical director. Family and children’s dentistry.\n- **Dr. Henrik Solberg, DDS**: Oral surgeon. Implants and wisdom tooth removal. Sees patients on Tuesdays and Thursdays.',
      },
    ];
    const answer = await ask('Who does wisdom tooth removal?', { knowledge: team });
    assert.match(answer.text, /\*\*Dr\. Henrik Solberg, DDS\*\*: Oral surgeon\. Implants and wisdom tooth removal\./);
    assert.doesNotMatch(answer.text, /Okafor/);
  });

  test('a short headed section is quoted whole after its best sentence; a long one, or pasted text, is not', async () => {
    const processing = '- Orders placed by 1:00 p.m. Pacific Time, Monday to Friday, ship the same business day.\n- Orders placed after the cutoff, or on weekends, ship within 1–2 business days.\n- We do not pack or ship orders on Saturdays or Sundays.';
    const short = [{ sourceTitle: 'Shipping', sourceUrl: '', heading: 'Shipping > Processing times', text: processing }];
    const question = 'Do you ship orders on Saturdays?';
    const whole = await ask(question, { knowledge: short });
    // The best sentence leads; the rest of the section follows in its order of writing.
    assert.ok(whole.text.startsWith('- We do not pack or ship orders on Saturdays or Sundays.'), whole.text);
    assert.match(whole.text, /Sundays\.\n- Orders placed by 1:00 p\.m\.[^\n]*\n- Orders placed after the cutoff/);
    // Past 80 words the section is no longer read at a glance: only what answers is quoted.
    const filler = ' Our warehouse team packs every order by hand with recycled paper, checks each item against the packing slip, and seals the box with plant-based tape before handing it to the carrier at the end of the afternoon.'.repeat(2);
    const long = [{ ...short[0]!, text: `${filler.trim()}\n\n${processing}` }];
    const part = await ask(question, { knowledge: long });
    assert.ok(part.text.startsWith('- We do not pack or ship orders on Saturdays or Sundays.'), part.text);
    assert.doesNotMatch(part.text, /recycled paper/);
    // Text pasted without headings is no section: its other sentences may be about anything.
    const pasted = await ask(question, { knowledge: [{ ...short[0]!, heading: '' }] });
    assert.doesNotMatch(pasted.text, /1:00 p\.m\./);
  });

  test('in a long FAQ passage, the block under the best sentence’s bold question is its section', async () => {
    const faq = [
      {
        sourceTitle: 'FAQ',
        sourceUrl: '',
        heading: 'FAQ > Holidays',
        text: [
          '**Are you open on public holidays?**',
          'We are closed on Christmas Day and New Year’s Day.',
          'On Christmas Eve we close early at 4 pm.',
          'Thanksgiving hours are 7 am to 2 pm.',
          '**Can I bring a guest?**',
          'Members may bring one guest a month. Guests pay a day fee of $15 at the front desk and must be at least 16 years old. They sign a waiver before their first visit, show photo ID, and follow the same club rules as members, including the towel rule and the booking rules for classes and courts.',
        ].join('\n'),
      },
    ];
    const answer = await ask('Are you closed on Christmas Day?', { knowledge: faq });
    assert.ok(answer.text.startsWith('We are closed on Christmas Day'), answer.text);
    assert.match(answer.text, /Christmas Eve we close early at 4 pm\. Thanksgiving hours are 7 am to 2 pm\./);
    assert.doesNotMatch(answer.text, /guest|Are you open/i);
  });

  test('quoted list items keep their markers: numbered steps their numbers, bullets and table rows a dash', async () => {
    const steps = [{ sourceTitle: 'Returns', sourceUrl: '', heading: 'Returns > How to return', text: 'To send something back:\n1. Fill in the return form in your account.\n2. Pack the item with its tags.\n3. Drop the parcel at any post office.' }];
    const answer = await ask('How do I return an item?', { knowledge: steps });
    assert.match(answer.text, /^1\. Fill in the return form in your account\.\n2\. Pack the item with its tags\.\n3\. Drop the parcel at any post office\.$/m);
    const prices = [{ sourceTitle: 'Prices', sourceUrl: '', heading: 'Prices', text: '| Service | Price |\n|---|---|\n| Tune-up | $59 |\n| Flat tyre | $15 |' }];
    assert.match((await ask('How much is a tune-up?', { knowledge: prices })).text, /^- Service: Tune-up — Price: \$59$/m);
  });

  test('opening hours are answered by clock times and days, not by a time relative to something; paying is a payment', async () => {
    const faq = [
      { sourceTitle: 'FAQ', sourceUrl: '', heading: 'FAQ > Returns', text: 'You can return any unused item within 30 days of purchase for a full refund. Bring the receipt.' },
      { sourceTitle: 'FAQ', sourceUrl: '', heading: 'FAQ > Opening hours', text: 'We are open Monday to Friday from 9:00 to 18:00 and on Saturday from 10:00 to 14:00.' },
      { sourceTitle: 'FAQ', sourceUrl: '', heading: 'FAQ > Payment', text: '- Visa and Mastercard\n- PayPal\n- Cash in the shop' },
    ];
    for (const question of ['What are your opening hours?', 'When are you open?']) {
      const hours = await ask(question, { knowledge: faq });
      assert.equal(hours.text, 'We are open Monday to Friday from 9:00 to 18:00 and on Saturday from 10:00 to 14:00.', question);
    }
    assert.equal(expectedKind('What are your opening hours?')?.name, 'hours');
    // A bag ripped open asks for no opening hours.
    assert.notEqual(expectedKind('I already ripped the bag open, can I still return it?')?.name, 'hours');
    const pay = await ask('How do I pay?', { knowledge: faq });
    assert.match(pay.text, /- Visa and Mastercard\n- PayPal\n- Cash in the shop/);
    assert.doesNotMatch(pay.text, /return/);
  });

  test('a sentence that is itself a question does not lead the answer', async () => {
    const guests = [{ sourceTitle: 'Guests', sourceUrl: '', heading: 'Guests', text: 'Can a guest visit 3 times a month? A guest can visit 3 times a month.' }];
    const answer = await ask('How often can a guest visit?', { knowledge: guests });
    assert.equal(answer.text, 'A guest can visit 3 times a month.');
  });

  test('a German question for opening hours is read through its compound and "aufhaben"', async () => {
    const hours = [
      { sourceTitle: 'Werkstatt', sourceUrl: '', heading: 'Werkstatt > Öffnungszeiten', text: '| Tag | Geöffnet |\n|---|---|\n| Montag bis Freitag | 9:00–18:00 Uhr |\n| Samstag | 9:30–14:00 Uhr |\n| Sonntag | geschlossen |' },
      { sourceTitle: 'Verleih', sourceUrl: '', heading: 'Verleih > Ausweis', text: 'Haben Sie einen Ausweis dabei, leihen wir Ihnen das Rad sofort aus.' },
    ];
    const answer = await ask('Habt ihr am Samstagvormittag auf?', { knowledge: hours });
    assert.match(answer.text, /Samstag — Geöffnet: 9:30–14:00 Uhr/);
  });

  test('everyday words meet what help centres call things ("pay with my phone", "leave my car", "don’t show up")', async () => {
    const clinic = [
      { sourceTitle: 'Payment', sourceUrl: '', heading: 'Payment > Methods', text: 'We accept cash and all major cards. Apple Pay and Google Pay work at reception.' },
      { sourceTitle: 'Visit', sourceUrl: '', heading: 'Visit > Getting here', text: 'Park in the Mercer Lane garage behind the building. Bus 12 stops at the door.' },
      { sourceTitle: 'Policy', sourceUrl: '', heading: 'Policy > Missed visits', text: 'A no-show fee of $75 is charged for missed appointments. Reminders go out a day before.' },
    ];
    assert.match((await ask('Can I pay with my phone?', { knowledge: clinic })).text, /Apple Pay and Google Pay/);
    assert.match((await ask('Where should I leave my car?', { knowledge: clinic })).text, /Mercer Lane garage/);
    assert.match((await ask("What if I just don't show up?", { knowledge: clinic })).text, /no-show fee of \$75/);
    // Showing up, or a shop down the street, is no no-show and no outage.
    assert.ok(!contentTerms('I did show up on time').includes(termOf('noshow')));
    assert.ok(!contentTerms('The shop is down the street').includes(termOf('outage')));
    assert.ok(contentTerms('What if the app goes down?').includes(termOf('outage')));
    // Booking ahead is booking in advance; contesting a decision is appealing it; a real person is an agent.
    assert.ok(contentTerms('How far ahead can I book?').includes(termOf('advance')));
    assert.ok(contentTerms('Can I contest the decision?').includes(termOf('appeal')));
    assert.ok(contentTerms('Can I talk to a real person?').includes(termOf('agent')));
    assert.ok(contentTerms('Is there a number I can ring?').includes(termOf('call')));
    // A ring is jewellery unless someone is rung.
    assert.ok(!contentTerms('Can you resize my ring?').includes(termOf('call')));
    const shop = [
      { sourceTitle: 'Rewards', sourceUrl: '', heading: 'Rewards > Points', text: 'Points expire 12 months after you earn them. Members earn 1 point per dollar.' },
      { sourceTitle: 'Financing', sourceUrl: '', heading: 'Financing', text: 'Orders over $500 can be paid in 12 interest-free installments.' },
      { sourceTitle: 'Kids', sourceUrl: '', heading: 'Kids', text: 'A child under 14 must be with an adult at all times.' },
    ];
    assert.match((await ask('Do my points ever go away?', { knowledge: shop })).text, /Points expire 12 months/);
    assert.match((await ask('Can I split it into monthly chunks?', { knowledge: shop })).text, /12 interest-free installments/);
    assert.match((await ask('Can my 12-year-old come along?', { knowledge: shop })).text, /A child under 14/);
  });

  test('a German question for a duration quotes the sentence that holds one', async () => {
    const workshop = [
      {
        sourceTitle: 'Werkstatt',
        sourceUrl: '',
        heading: 'Werkstatt > Reparatur',
        text: 'Jede Reparatur beginnt mit einer Diagnose in unserer Werkstatt. Eine Reparatur dauert in der Regel 3 Werktage.',
      },
    ];
    const { text } = await ask('Wie lange dauert eine Reparatur in der Werkstatt?', { knowledge: workshop });
    assert.ok(text.startsWith('Eine Reparatur dauert in der Regel 3 Werktage.'), text);
  });
});

describe('parley-local helpers', () => {
  test("Porter's stems keep apart the few words it would confuse: business and busy, international and internal", () => {
    for (const [a, b] of [['business', 'busy'], ['international', 'internal'], ['evening', 'even'], ['news', 'new'], ['generous', 'general'], ['marine', 'marina'], ['customs', 'customers'], ['accountant', 'account'], ['installments', 'installed'], ['department', 'departure'], ['suite', 'suit'], ['tired', 'tires']]) assert.notEqual(termOf(a!), termOf(b!), `${a} / ${b}`);
    assert.equal(termOf('businesses'), termOf('business'));
    assert.equal(termOf('internationally'), termOf('international'));
    assert.equal(termOf('evenings'), termOf('evening'));
    // Customs are duties, not customers; importing a file is not customs.
    assert.equal(termOf('duties'), termOf('customs'));
    assert.notEqual(termOf('customer'), termOf('customs'));
    assert.notEqual(termOf('import'), termOf('customs'));
    // Three failed attempts to sign in are no free trial; to try it for free is.
    assert.notEqual(termOf('attempts'), termOf('trial'));
    assert.equal(termOf('try'), termOf('trial'));
  });

  test('of two words sharing a stem, the lexicon reads first what the word as written translates', () => {
    // Portuguese "modo" (a mode) and "moda" (a fashion) share the stem "mod".
    assert.equal(englishWordsFor('modo', 'pt')[0], 'mode');
    assert.equal(englishWordsFor('moda', 'pt')[0], 'fashion');
    assert.ok(englishWordsFor('modos', 'pt').includes('mode'), 'a form the lexicon does not list is still found by its stem');
  });

  test('words that name methods of a plain object ("constructor", "toString") are words like any other', async () => {
    assert.deepEqual(contentTerms('Who is the constructor? toString valueOf'), ['constructor', 'tostr', 'valueof']);
    assert.equal(typeof termOf('constructor'), 'string');
    assert.deepEqual(searchWords('constructor hasOwnProperty'), ['constructor', 'hasownproperty']);
    assert.equal(languageOfTag('constructor'), 'en');
    const { text } = await ask('Who was the constructor of the building?');
    assert.equal(text, PHRASES.en.dontKnow);
  });

  test("a host name's last label is no word of the text: brightpath.app holds no app", () => {
    assert.deepEqual(contentTerms('Add notifications@brightpath.app to your contacts.'), contentTerms('Add notifications brightpath to your contacts.'));
    assert.ok(contentTerms('Go to brightpath.app/signup').includes(termOf('signup')));
    assert.ok(contentTerms('Get the Brightpath app for iOS.').includes(termOf('app')));
    assert.ok(contentTerms('Export the report as report.pdf').includes(termOf('pdf')));
  });

  test('help-desk words of the other five languages share the English concept’s term', () => {
    const prices = [['es', 'precio'], ['es', 'tarifa'], ['fr', 'prix'], ['de', 'preis'], ['pt', 'preço'], ['it', 'prezzo']] as const;
    for (const [language, word] of prices) {
      assert.equal(termOf(word, 'en', language), termOf('cost'), word);
      assert.equal(termOf(word, language), termOf('cost'), word);
    }
    for (const word of ['reembolso', 'remboursement', 'rückerstattung', 'rimborso']) assert.equal(termOf(word), termOf('refund'), word);
    // Money got back is a refund, the money included; what else is got back stays itself.
    assert.deepEqual(contentTerms('Will I get my money back?'), [termOf('refund')]);
    assert.deepEqual(contentTerms('When do I get the deposit back?'), [termOf('refund'), termOf('deposit')]);
    // A receipt (proof of a purchase) is not an invoice (a request for payment), in any language.
    assert.notEqual(termOf('receipt'), termOf('invoice'));
    assert.equal(termOf('factura', 'en', 'es'), termOf('invoices'));
    assert.equal(termOf('quittung', 'en', 'de'), termOf('receipts'));
    // German "kind" (child) is also an English word: it keeps its English sense.
    assert.notEqual(termOf('kind'), termOf('kinder'));
    // Full-text search widens a word with its own language's synonyms and the English concept's head word.
    assert.deepEqual(searchWords('tarifa'), ['tarifa', 'cost', 'precio', 'coste', 'costo']);
    assert.deepEqual(searchWords('kostenlose Testphase'), ['kostenlose', 'testphase', 'free', 'kostenlos', 'gratis', 'umsonst', 'trial', 'testversion', 'probezeit', 'probeabo']);
    // A translated word the English stemmer would take for a common English word folds only when
    // the question is written in its language: English "termination" stays a cancellation, "cart" a cart.
    assert.equal(termOf('termination'), termOf('cancel'));
    assert.notEqual(termOf('cart'), termOf('card'));
    assert.notEqual(termOf('essay'), termOf('trial'));
    assert.equal(termOf('essai', 'en', 'fr'), termOf('trial'));
    assert.equal(termOf('Kostenloser'.toLowerCase(), 'en', 'de'), termOf('free'));
    assert.ok(searchWords("l'essai gratuit", 'fr').includes('trial'));
    // Read as English for English knowledge: a visitor's word through the lexicon, their function
    // words dropped ("combien", "de"), a name inside a sentence kept as written ("el plan Solo").
    assert.equal(termOf('conexión', 'en', 'es'), termOf('connection'));
    assert.equal(termOf('conexión', 'es', 'es'), termOf('conexión', 'es'));
    assert.deepEqual(contentTerms('Combien de temps faut-il ?', 'en', 'fr'), [termOf('time')]);
    assert.ok(weightedTerms('¿Cuánto cuesta el plan Solo al mes?', 'en', 'es').has(termOf('solo')));
    assert.deepEqual(searchWords('conexión', 'es'), ['conexión', 'connection']);
    // A word the knowledge uses is read as written: an English name in a German sentence ("Full
    // Groom" is not German "füllen"), unless it is too short to tell.
    const known = new Map([termOf('full'), termOf('groom'), termOf('cost')].map((term) => [term, 1]));
    assert.deepEqual(contentTerms('Was kostet ein Full Groom?', 'en', 'de', known), [termOf('cost'), termOf('full'), termOf('groom')]);
    assert.notDeepEqual(contentTerms('Was kostet ein Full Groom?', 'en', 'de'), [termOf('cost'), termOf('full'), termOf('groom')]);
    // "What" and "must" carry no topic in any of the six.
    assert.deepEqual(searchWords('Cosa devo portare?'), ['portare']);
    assert.deepEqual(searchWords('Que dois-je apporter ?'), ['apporter']);
  });

  test('the kind of value a question asks for is read in all six languages', () => {
    const cases: [string, string][] = [
      ['How long does a repair take?', 'duration'],
      ['¿Cuánto tiempo tarda el envío?', 'duration'],
      ['Wie lange dauert die Reparatur?', 'duration'],
      ['Combien coûte la taxe de séjour ?', 'money'],
      ['Quanto custa o bolo de aniversário?', 'money'],
      ['Ab welchem Alter darf man mieten?', 'number'],
      ['A che ora aprite?', 'time'],
      ['Où se trouve la gare ?', 'place'],
      ['Perché la garanzia non copre i graffi?', 'reason'],
      ['How tall is the tent inside?', 'measure'],
      ['What temperature is the pool kept at?', 'measure'],
      ['Lowest temp in Fahrenheit for this bag?', 'measure'],
      ['¿Cuánto pesa la bicicleta?', 'measure'],
      ['Wie schwer ist das E-Bike?', 'measure'],
      ['Wie viel wiegt das Zelt?', 'measure'],
      ['How often can a guest come?', 'frequency'],
      ['Combien de fois par an ?', 'frequency'],
      // "How far ahead" asks for a time, not a distance; "wie hoch" usually for an amount.
      ['How far ahead can I book a class?', 'duration'],
      ['Wie hoch ist der Stundensatz?', 'money'],
      // Naming a day asks about that day: hours alone, of any day, do not answer it.
      ['Are you open on Sundays?', 'day'],
      ['Is Dr. Okafor available on Fridays?', 'day'],
      ['Il negozio è aperto la domenica?', 'day'],
      ['Habt ihr am Wochenende offen?', 'day'],
    ];
    const kinds = { day: 'Monday to Saturday', duration: '3 Werktage', money: '12,50 €', number: '18', time: '9:30', place: '12 rue de la Gare', reason: 'weil', measure: '104 cm', frequency: '3 times per month' };
    for (const [question, kind] of cases) {
      const expected = expectedKind(question);
      assert.equal(expected?.name, kind, question);
      assert.ok(expected.pattern.test(kinds[kind as keyof typeof kinds]), `${question} asks for a ${kind}`);
    }
    assert.ok(!expectedKind('What temperature is the pool kept at?')!.pattern.test('The pool is open until 9 pm.'));
    // What costs nothing answers how much it costs.
    for (const said of ['One shake a day is included in Tide Plus.', 'Light tangles are brushed out at no extra cost.', 'La riparazione è senza costi.', 'Sin coste para socios.']) assert.ok(expectedKind('How much is it?')!.pattern.test(said), said);
    // "a 14-day trial", "a 45-minute session" say how long as well as "14 days" does.
    for (const said of ['Start your 14-day free trial.', 'The assessment is a 45-minute session.']) assert.ok(expectedKind('How long is the free trial?')!.pattern.test(said), said);
    const day = expectedKind('What time does the store open on Sundays?')!;
    assert.equal(day.name, 'day');
    assert.ok(!day.pattern.test('The store opens at 9:00 am, and returns are accepted within 14 days.'));
    for (const said of ['Closed on Sundays.', 'Open every day from 8 am.', 'Le week-end, de 9 h à 12 h.', 'Wir haben täglich geöffnet.', 'Aberto aos sábados.', 'Chiuso il lunedì.', 'Fechado à segunda.']) assert.ok(day.pattern.test(said), said);
    // Portuguese days double as ordinals: "a segunda via" is a second copy, not a Monday.
    assert.equal(expectedKind('Como peço a segunda via da fatura?')?.name, undefined);
    // A person is two capitalised words, not a place's name.
    const person = expectedKind('Who is the manager of the Birchfield store?')!;
    assert.equal(person.name, 'person');
    assert.ok(person.pattern.test('The store manager is Dana Whitfield.'));
    assert.ok(!person.pattern.test('Returns at our Old Mill and Birchfield stores are free; park on Quay Street.'));
    // A file's size is a measure too.
    assert.ok(expectedKind('How big can each file be?')!.pattern.test('Largest file: 15 MB per file'));
    assert.ok(expectedKind('Quelle taille pour une pièce jointe ?')!.pattern.test('jusqu’à 10 Mo par fichier'));
    assert.equal(expectedKind('Do you have a dog-friendly room?'), null);
  });

  test('language tags map to their primary subtag, unknown ones to English', () => {
    assert.equal(languageOfTag('pt-BR'), 'pt');
    assert.equal(languageOfTag('IT'), 'it');
    assert.equal(languageOfTag('Spanish'), 'es');
    assert.equal(languageOfTag('zh-Hans'), 'en');
  });

  test('sentences split at stops but not at abbreviations or decimals', () => {
    assert.deepEqual(splitSentences('Open 7 a.m. to 7 p.m. Pacific time. Version 4.2 fixes it! Call us.'), [
      'Open 7 a.m. to 7 p.m. Pacific time.',
      'Version 4.2 fixes it!',
      'Call us.',
    ]);
    // A sentence wrapped over lines (PDF text) is one; a line that starts anew is not joined.
    const wrapped = 'The owner may export data at any time in CSV and JSON formats, including tasks,\ncomments and attachments.\nMonday: 9:00–17:00\nTuesday: closed';
    assert.deepEqual(splitUnits(wrapped).map((u) => u.text), [
      'The owner may export data at any time in CSV and JSON formats, including tasks, comments and attachments.',
      'Monday: 9:00–17:00',
      'Tuesday: closed',
    ]);
    // An abbreviation in bold or italics is still one.
    assert.deepEqual(splitSentences('**Dr. Henrik Solberg**: Oral surgeon. Sees patients on Tuesdays.'), ['**Dr. Henrik Solberg**: Oral surgeon.', 'Sees patients on Tuesdays.']);
  });

  test('a line all in bold (an FAQ question) is quoted and titles the sentences after it', () => {
    const faq = splitUnits('**Do you deliver on Sundays?**\nNo, our couriers rest on Sundays.\n\n**Can I collect?**\nYes, from noon.');
    assert.deepEqual(faq.map((u) => [u.text, u.localHeading]), [
      ['**Do you deliver on Sundays?**', 'Do you deliver on Sundays?'],
      ['No, our couriers rest on Sundays.', 'Do you deliver on Sundays?'],
      ['**Can I collect?**', 'Can I collect?'],
      ['Yes, from noon.', 'Can I collect?'],
    ]);
  });

  test('in text pasted without formatting, a question line and a short title line title what follows', () => {
    const pasted = 'Delivery\n\nOrders ship within 2 days.\n\nDo you ship abroad?\nYes, to Canada for $15.\n\nThanks for reading';
    assert.deepEqual(splitUnits(pasted).map((u) => [u.text, u.localHeading]), [
      ['Delivery', 'Delivery'],
      ['Orders ship within 2 days.', 'Delivery'],
      ['Do you ship abroad?', 'Do you ship abroad?'],
      ['Yes, to Canada for $15.', 'Do you ship abroad?'],
      // A last short line has nothing after it to title.
      ['Thanks for reading', 'Do you ship abroad?'],
    ]);
  });

  test('a table row is read with its column names, a value the same in every column said once', () => {
    const table = '| Service | Small | Large |\n| --- | --- | --- |\n| Full groom | $65 | $98 |\n| Nail trim | $15 | $15 |\n\n| | |\n| --- | --- |\n| Sunday | Closed |';
    assert.deepEqual(splitUnits(table).map((u) => u.text), ['Service: Full groom — Small: $65; Large: $98', 'Service: Nail trim — $15', 'Sunday — Closed']);
  });
});
