import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AnswerBot } from '../answers.types.ts';
import { chooseLanguage, detectLanguage, guessUnclearLanguage } from './language.ts';

const bot: AnswerBot = {
  id: 'b',
  name: 'Shop',
  welcome_message: '',
  selected_model: 'parley-local',
  system_instructions: '',
  response_language: '',
  strict_mode: true,
  lead_capture_enabled: false,
};

describe('parley-local: the language of its own phrases', () => {
  test('short English questions stay English (trigrams alone read them as German or Portuguese)', () => {
    for (const question of ['When will I get my money?', "What is your CEO's name?", 'Do you have a Zumba class?', 'How long is a password reset link valid?']) {
      assert.equal(chooseLanguage({ bot, question, history: [] }), 'en', question);
    }
  });

  test('a clear message in another language is answered in it', () => {
    const cases: [string, string][] = [
      ['¿Cuánto cuesta la matrícula del curso?', 'es'],
      ['Combien coûte la taxe de séjour ?', 'fr'],
      ['Wie hoch ist der Stundensatz der Werkstatt?', 'de'],
      ['Qual é o horário de funcionamento ao sábado?', 'pt'],
      ['Quanto costano le lenti progressive?', 'it'],
    ];
    for (const [question, language] of cases) assert.equal(chooseLanguage({ bot, question, history: [] }), language, question);
  });

  test('a message too short to tell keeps the conversation’s language, else the bot’s, else English', () => {
    const history = [{ role: 'user' as const, content: 'Est-ce que vous acceptez les chiens dans les chambres ?' }, { role: 'assistant' as const, content: 'Oui.' }];
    assert.equal(detectLanguage('Parking?'), null);
    assert.equal(chooseLanguage({ bot, question: 'Parking?', history }), 'fr');
    assert.equal(chooseLanguage({ bot, question: 'Parking?', history: [] }), 'en');
    assert.equal(chooseLanguage({ bot: { ...bot, response_language: 'de' }, question: 'How much is it?', history: [] }), 'de');
  });

  test('a message of words English lacks takes the knowledge’s language when its letters allow it', () => {
    assert.equal(detectLanguage('Öffnungszeiten?'), null);
    assert.equal(chooseLanguage({ bot, question: 'Öffnungszeiten?', history: [] }, undefined, 'de'), 'de');
    assert.equal(chooseLanguage({ bot, question: 'Orari?', history: [] }, undefined, 'it'), 'it');
    assert.equal(guessUnclearLanguage('Occhiali da sole', 'it'), 'it');
    // The letters rule out knowledge in another language: only German writes "ö".
    assert.equal(guessUnclearLanguage('Öffnungszeiten?', 'fr'), 'de');
    assert.equal(guessUnclearLanguage('Öffnungszeiten?', null), 'de');
    // "ç" with "á": Portuguese alone of the six.
    assert.equal(guessUnclearLanguage('Preços, horários?', null), 'pt');
    // "a" is a word of four of them, not Portuguese's alone.
    assert.equal(chooseLanguage({ bot, question: 'Lenti a contatto?', history: [] }, undefined, 'it'), 'it');
    assert.equal(chooseLanguage({ bot, question: 'Envíos a Canarias', history: [] }, undefined, 'es'), 'es');
    assert.equal(detectLanguage('Entregas em casa?'), 'pt');
  });

  test('with no knowledge to tip it, a message of another language’s everyday words takes the language whose lexicon holds them', () => {
    // No letter English lacks, and franc's trigrams guess wrong on two words; the lexicons know them.
    assert.equal(guessUnclearLanguage('Garantie Fahrrad?', null), 'de');
    assert.equal(guessUnclearLanguage('Preis Reparatur?', null), 'de');
    assert.equal(guessUnclearLanguage('Consegna domani?', null), 'it');
    assert.equal(chooseLanguage({ bot, question: 'Reembolso tarjeta?', history: [] }), 'es');
    // A form of a lexicon word counts, read by the language's stem ("horaires" is "horaire").
    assert.equal(guessUnclearLanguage('Horaires ?', null), 'fr');
    assert.equal(guessUnclearLanguage('Estacionamento?', null), 'pt');
    // Words both Spanish and Portuguese write stay undecided.
    assert.equal(guessUnclearLanguage('Mochila usada?', null), null);
  });

  test('English words, or one unknown word with nothing to tip it, stay English', () => {
    assert.equal(chooseLanguage({ bot, question: 'Refund?', history: [] }, undefined, 'de'), 'en');
    assert.equal(chooseLanguage({ bot, question: 'Parking for bikes?', history: [] }, undefined, 'it'), 'en');
    assert.equal(chooseLanguage({ bot, question: 'Lumenix?', history: [] }, undefined, 'en'), 'en');
    assert.equal(guessUnclearLanguage('Lumenix?', null), null);
    // The conversation's language comes before any guess.
    const history = [{ role: 'user' as const, content: 'Est-ce que vous acceptez les chiens dans les chambres ?' }];
    assert.equal(chooseLanguage({ bot, question: 'Orari?', history }, undefined, 'it'), 'fr');
  });
});
