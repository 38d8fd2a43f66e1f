// The widget's own words (web/widget/src/words.ts): every language says everything English says,
// a missing translation fails the widget's typecheck, and the language is chosen from the bot's
// response_language, then the browser's languages, then English.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { PHRASE_LANGUAGES } from '../answers/local/phrases.ts';
import { chooseLanguage, WIDGET_LANGUAGES, WORDS, type WidgetWords } from '../../../web/widget/src/words.ts';
import { uploadProblem } from '../../../web/widget/src/upload-rules.ts';

const WIDGET_DIR = fileURLToPath(new URL('../../../web/widget/', import.meta.url));
const WORDS_FILE = join(WIDGET_DIR, 'src/words.ts');

/** Every word as text: functions called with recognisable arguments. */
function flatten(words: WidgetWords): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [key, value] of Object.entries(words)) {
    if (typeof value === 'string') flat[key] = value;
    else if (typeof value === 'function') flat[key] = String(value('ARG1', 'ARG2'));
    else for (const [inner, text] of Object.entries(value as Record<string, string>)) flat[`${key}.${inner}`] = text;
  }
  return flat;
}

/** The widget's type errors in words.ts when its text is `source` (the real file otherwise untouched). */
function typeErrorsWith(source: string): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(join(WIDGET_DIR, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!;
  const host = ts.createCompilerHost(config.options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (file, language, ...rest) =>
    file === WORDS_FILE ? ts.createSourceFile(file, source, language) : getSourceFile(file, language, ...rest);
  const program = ts.createProgram([WORDS_FILE], config.options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe("the widget's words", () => {
  it('speaks the languages of parley-local', () => {
    assert.deepEqual([...WIDGET_LANGUAGES].sort(), [...PHRASE_LANGUAGES].sort());
    assert.deepEqual(Object.keys(WORDS).sort(), [...WIDGET_LANGUAGES].sort());
  });

  it('has every word in every language, none empty, and each its own', () => {
    const english = flatten(WORDS.en);
    for (const language of WIDGET_LANGUAGES) {
      const words = flatten(WORDS[language]);
      assert.deepEqual(Object.keys(words).sort(), Object.keys(english).sort(), language);
      for (const [key, text] of Object.entries(words)) assert.ok(text.trim().length > 0, `${language} ${key}`);
      if (language === 'en') continue;
      // Words that may stay the same across languages ("Chat", "Sources", "Name", "Team", …) are few.
      const same = Object.keys(words).filter((key) => words[key] === english[key] && !/fileSize/.test(key));
      assert.ok(same.length <= 5, `${language} repeats English: ${same.join(', ')}`);
    }
  });

  it('keeps what it is given in the sentence: names, counts, sizes', () => {
    for (const language of WIDGET_LANGUAGES) {
      const words = WORDS[language];
      assert.match(words.openChat('Velo Support', 0), /Velo Support/);
      assert.match(words.openChat('Velo Support', 3), /Velo Support.*3/);
      assert.match(words.sending(42), /42/);
      assert.match(words.tooLarge('25 MB', '20 MB'), /25 MB.*20 MB/);
      assert.match(words.typeRefused('.png .pdf'), /\.png \.pdf$/);
    }
    assert.equal(WORDS.en.fileSize(999), '999 B');
    assert.equal(WORDS.en.fileSize(385_000), '385 kB');
    assert.equal(WORDS.en.fileSize(1_500_000), '1.5 MB');
    assert.equal(WORDS.de.fileSize(1_500_000), '1,5 MB');
    assert.equal(WORDS.fr.fileSize(1_500_000), '1,5 Mo');
    assert.equal(WORDS.fr.fileSize(20_000_000), '20 Mo');
    const rules = { max_bytes: 1_000_000, types: [{ extension: '.png', mime: 'image/png' }] };
    assert.equal(uploadProblem({ name: 'big.png', size: 2_500_000, type: 'image/png' }, rules, WORDS.de), 'Diese Datei ist 2,5 MB groß; die Grenze liegt bei 1 MB.');
    assert.equal(uploadProblem({ name: 'tool.exe', size: 2, type: '' }, rules, WORDS.fr), 'Ce type de fichier ne peut pas être envoyé. Types acceptés : .png');
    assert.equal(uploadProblem({ name: 'ok.png', size: 2, type: 'image/png' }, rules, WORDS.it), null);
  });

  it("chooses the bot's response_language, else the browser's first language it speaks, else English", () => {
    assert.equal(chooseLanguage('de', ['fr-FR', 'fr']), 'de');
    assert.equal(chooseLanguage('pt-BR', []), 'pt');
    assert.equal(chooseLanguage('IT', ['en-US']), 'it');
    assert.equal(chooseLanguage('', ['fr-FR', 'en']), 'fr');
    assert.equal(chooseLanguage('', ['ja-JP', 'es-MX', 'en']), 'es');
    // A response language the widget has no words for: the visitor's languages decide.
    assert.equal(chooseLanguage('ja', ['de-AT']), 'de');
    assert.equal(chooseLanguage('ja', ['ja-JP']), 'en');
    assert.equal(chooseLanguage('', []), 'en');
  });

  it('fails the widget typecheck when a translation is missing', () => {
    const source = readFileSync(WORDS_FILE, 'utf8');
    assert.deepEqual(typeErrorsWith(source), [], 'the real file checks');
    const withoutGermanSources = source.replace("    sources: 'Quellen',\n", '');
    assert.notEqual(withoutGermanSources, source);
    const errors = typeErrorsWith(withoutGermanSources);
    assert.ok(
      errors.some((e) => /Property 'sources' is missing/.test(e)),
      errors.join('\n'),
    );
  });
});
