import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AnswerBot, AnswerRequest } from '../answers.types.ts';
import { languageName, languageRuleFor, messagesFor, passagesBlock, systemPromptFor, NO_PASSAGES, LEAD_CAPTURE_HINT } from './prompts.ts';
import { isKeyProvider, providerForModel } from './provider-routing.ts';
import { redactSecrets } from './provider-errors.ts';

const bot: AnswerBot = {
  id: 'b',
  name: 'Helper',
  welcome_message: 'Hi',
  selected_model: 'gpt-4o-mini',
  system_instructions: '',
  response_language: '',
  strict_mode: true,
  lead_capture_enabled: false,
};

describe('providerForModel', () => {
  it('routes model ids as decisions.md says', () => {
    const table: [string, string][] = [
      ['gpt-4o-mini', 'openai'],
      ['gpt-4.1', 'openai'],
      ['o1', 'openai'],
      ['o1-mini', 'openai'],
      ['o3-mini', 'openai'],
      ['o4-mini', 'openai'],
      ['claude-3-5-haiku-latest', 'anthropic'],
      ['claude-sonnet-4-0', 'anthropic'],
      ['gemini-2.0-flash', 'google'],
      ['mistral-small-latest', 'mistral'],
      ['open-mistral-nemo', 'mistral'],
      ['ministral-8b-latest', 'mistral'],
      ['parley-local', 'local'],
      ['llama3.2', 'openai-compatible'],
      ['qwen2.5:7b', 'openai-compatible'],
      ['o2-model', 'openai-compatible'],
      ['mixtral-8x7b', 'openai-compatible'],
    ];
    for (const [model, provider] of table) assert.equal(providerForModel(model), provider, model);
  });

  it('knows the four BYOK providers', () => {
    assert.ok(['openai', 'anthropic', 'google', 'mistral'].every(isKeyProvider));
    assert.ok(!isKeyProvider('local') && !isKeyProvider('openai-compatible') && !isKeyProvider('cohere'));
  });
});

describe('the prompt', () => {
  it('names the reply language: the request override, else the bot setting, else the visitor language', () => {
    assert.equal(languageName('es'), 'Spanish');
    assert.equal(languageName('de'), 'German');
    assert.equal(languageName('pt-BR'), 'Brazilian Portuguese');
    assert.match(languageName('zz'), /"zz"/);
    assert.equal(languageRuleFor({ bot: { ...bot, response_language: 'it' } }), 'Always reply in Italian, whatever the language of the passages.');
    assert.match(languageRuleFor({ bot: { ...bot, response_language: 'it' }, responseLanguage: 'fr' }), /in French/);
    assert.match(languageRuleFor({ bot: { ...bot, response_language: 'it' }, responseLanguage: '' }), /in Italian/);
    assert.match(languageRuleFor({ bot }), /in the language of the visitor's last message/);
  });

  it('says when no passage matched, and lists passages with their titles and headings', () => {
    assert.ok(passagesBlock([]).includes(NO_PASSAGES));
    const block = passagesBlock([{ passageId: 'p', sourceId: 's', sourceTitle: 'Billing', sourceUrl: '', heading: 'Refunds', text: 'Refunds take 5 days.', score: 1 }]);
    assert.match(block, /\[1\] Source: "Billing" › Refunds\nRefunds take 5 days\./);
  });

  it('adds the operator instructions, the lead-capture hint and attachment text only when present', () => {
    const plain = systemPromptFor({ bot, question: 'q', history: [] }, []);
    assert.ok(!plain.includes("The operator's instructions") && !plain.includes('Lead capture') && !plain.includes('booking link') && !plain.includes('attached'));
    const full = systemPromptFor(
      {
        bot: { ...bot, system_instructions: 'Be formal.', lead_capture_enabled: true },
        question: 'q',
        history: [],
        leadCapture: { missing: ['email', 'phone'], meetingUrl: 'https://cal.example.com/acme' },
        attachments: [{ name: 'invoice.pdf', mimeType: 'application/pdf', text: 'Invoice 42: 99 EUR' }, { name: 'photo.png', mimeType: 'image/png' }],
      },
      [],
    );
    assert.ok(full.includes("The operator's instructions for you:\nBe formal."));
    assert.ok(full.includes(LEAD_CAPTURE_HINT.replace('{fields}', 'email, phone')));
    assert.ok(full.includes('give them this booking link: https://cal.example.com/acme'));
    assert.ok(full.includes('--- invoice.pdf ---\nInvoice 42: 99 EUR'));
    assert.ok(!full.includes('photo.png'));
  });

  it('carries the whole history as messages, then the question', () => {
    const request: AnswerRequest = {
      bot,
      question: 'And to France?',
      history: [
        { role: 'assistant', content: 'Hi' },
        { role: 'user', content: 'Do you ship to Spain?' },
        { role: 'assistant', content: 'Yes.' },
        { role: 'user', content: '   ' },
      ],
    };
    const text = (t: string) => [{ type: 'text', text: t }];
    assert.deepEqual(messagesFor(request), [
      { role: 'assistant', content: text('Hi') },
      { role: 'user', content: text('Do you ship to Spain?') },
      { role: 'assistant', content: text('Yes.') },
      { role: 'user', content: text('And to France?') },
    ]);
  });
});

describe('redactSecrets', () => {
  it('removes the key sent and key-shaped text, and shortens long messages', () => {
    const key = 'my-very-own-provider-key';
    assert.equal(redactSecrets(`bad key ${key}`, [key]), 'bad key [redacted]');
    assert.equal(redactSecrets('Incorrect API key provided: sk-proj-abcd****wxyz.', []), 'Incorrect API key provided: [redacted].');
    assert.equal(redactSecrets('key AIzaSyA1234567890abcdef rejected', []), 'key [redacted] rejected');
    assert.equal(redactSecrets(`token ${'a1'.repeat(20)} expired`, []), 'token [redacted] expired');
    assert.ok(redactSecrets('x '.repeat(500), []).length <= 300);
  });
});
