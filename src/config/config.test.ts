import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from './config.ts';

describe('configuration', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.port, 3000);
    assert.equal(config.publicUrl, 'http://127.0.0.1:3000');
    assert.equal(config.signup, 'first');
    assert.deepEqual(config.rateLimits, { keyPerMin: 60, ipPerMin: 120, widgetPerMin: 30, loginPerMin: 10 });
    assert.equal(config.monthlyMessages, 10000);
    assert.equal(config.maxUploadBytes, 20971520);
    assert.equal(config.sessionIdleMinutes, 30);
    assert.deepEqual(config.webhookRetryDelaysSec, [1, 5, 30, 300, 1800, 7200, 28800]);
    assert.equal(config.webhookTimeoutMs, 10000);
    assert.equal(config.accessTokenTtlSec, 3600);
    assert.equal(config.refreshTokenTtlSec, 2592000);
    assert.equal(config.allowPrivateNetwork, false);
    assert.equal(config.trustProxy, false);
    assert.equal(config.providerTimeoutMs, 60000);
    assert.equal(config.databaseUrl, undefined);
  });

  it('reads every fixed variable', () => {
    const config = loadConfig({
      PARLEY_RATE_KEY_PER_MIN: '5',
      PARLEY_SESSION_IDLE_MINUTES: '0.05',
      PARLEY_SIGNUP: 'open',
      PARLEY_TRUST_PROXY: '10.0.0.0/8,127.0.0.1',
      PARLEY_ALLOW_PRIVATE_NETWORK: '1',
      PARLEY_WEBHOOK_RETRY_DELAYS: '1,2,3',
      DATABASE_URL: 'postgres://localhost/parley',
      PUBLIC_URL: 'https://chat.example.com/',
    });
    assert.equal(config.rateLimits.keyPerMin, 5);
    assert.equal(config.sessionIdleMinutes, 0.05);
    assert.equal(config.signup, 'open');
    assert.equal(config.trustProxy, '10.0.0.0/8,127.0.0.1');
    assert.equal(config.allowPrivateNetwork, true);
    assert.deepEqual(config.webhookRetryDelaysSec, [1, 2, 3]);
    assert.equal(config.databaseUrl, 'postgres://localhost/parley');
    assert.equal(config.publicUrl, 'https://chat.example.com');
  });

  it('reports every bad variable by name at once', () => {
    assert.throws(
      () => loadConfig({ PORT: 'eighty', PARLEY_SIGNUP: 'sometimes', PARLEY_RATE_IP_PER_MIN: '0', DATABASE_URL: 'mysql://x', PUBLIC_URL: 'ftp://x', PARLEY_SECRET_KEY: 'too-short' }),
      (err: unknown) => {
        assert.ok(err instanceof ConfigError);
        for (const name of ['PORT', 'PARLEY_SIGNUP', 'PARLEY_RATE_IP_PER_MIN', 'DATABASE_URL', 'PUBLIC_URL', 'PARLEY_SECRET_KEY']) {
          assert.ok(err.problems.some((p) => p.startsWith(`${name}:`)), name);
        }
        return true;
      },
    );
  });

  describe('PARLEY_EMBEDDING_MODEL', () => {
    const embedding = (env: Record<string, string>) => loadConfig(env).embeddingModel;

    it("picks the first pool with a known embedding model when unset, and none for a compatible server's own names", () => {
      assert.equal(embedding({}), undefined);
      assert.deepEqual(embedding({ OPENAI_API_KEY: 'sk-x', MISTRAL_API_KEY: 'm' }), { provider: 'openai', modelId: 'text-embedding-3-small' });
      assert.deepEqual(embedding({ MISTRAL_API_KEY: 'm', GOOGLE_GENERATIVE_AI_API_KEY: 'g' }), { provider: 'mistral', modelId: 'mistral-embed' });
      assert.deepEqual(embedding({ GOOGLE_GENERATIVE_AI_API_KEY: 'g', ANTHROPIC_API_KEY: 'a' }), { provider: 'google', modelId: 'gemini-embedding-001' });
      assert.equal(embedding({ ANTHROPIC_API_KEY: 'a' }), undefined, 'Anthropic has no embedding model');
      assert.equal(embedding({ OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' }), undefined);
      assert.equal(embedding({ OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1', OPENAI_API_KEY: 'sk-x' }), undefined);
    });

    it('takes provider:model (model ids may hold colons) or off', () => {
      assert.deepEqual(embedding({ PARLEY_EMBEDDING_MODEL: 'openai:text-embedding-3-large', OPENAI_API_KEY: 'sk-x' }), { provider: 'openai', modelId: 'text-embedding-3-large' });
      assert.deepEqual(embedding({ PARLEY_EMBEDDING_MODEL: 'openai:nomic-embed-text:latest', OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' }), {
        provider: 'openai',
        modelId: 'nomic-embed-text:latest',
      });
      assert.deepEqual(embedding({ PARLEY_EMBEDDING_MODEL: 'google:gemini-embedding-001', GOOGLE_GENERATIVE_AI_API_KEY: 'g' }), { provider: 'google', modelId: 'gemini-embedding-001' });
      assert.equal(embedding({ PARLEY_EMBEDDING_MODEL: 'off', OPENAI_API_KEY: 'sk-x' }), undefined);
    });

    it('refuses an unknown provider, a missing model, Anthropic, and a provider without its key, with the other problems', () => {
      const problems = (env: Record<string, string>) => {
        try {
          loadConfig(env);
        } catch (err) {
          assert.ok(err instanceof ConfigError);
          return err.problems;
        }
        assert.fail('the configuration was accepted');
      };
      const [bogus] = problems({ PARLEY_EMBEDDING_MODEL: 'bogus:x', OPENAI_API_KEY: 'sk-x' });
      assert.equal(bogus, "PARLEY_EMBEDDING_MODEL: expected provider:model with provider openai, mistral or google (e.g. openai:text-embedding-3-small), or off; got 'bogus:x'");
      assert.match(problems({ PARLEY_EMBEDDING_MODEL: 'text-embedding-3-small', OPENAI_API_KEY: 'sk-x' })[0]!, /^PARLEY_EMBEDDING_MODEL: expected provider:model/);
      assert.match(problems({ PARLEY_EMBEDDING_MODEL: 'openai:', OPENAI_API_KEY: 'sk-x' })[0]!, /^PARLEY_EMBEDDING_MODEL: expected provider:model/);
      assert.match(problems({ PARLEY_EMBEDDING_MODEL: 'anthropic:claude', ANTHROPIC_API_KEY: 'a' })[0]!, /^PARLEY_EMBEDDING_MODEL: Anthropic has no embedding model/);
      assert.deepEqual(problems({ PARLEY_EMBEDDING_MODEL: 'mistral:mistral-embed', OPENAI_API_KEY: 'sk-x' }), ["PARLEY_EMBEDDING_MODEL: 'mistral:mistral-embed' needs MISTRAL_API_KEY to be set"]);
      assert.match(problems({ PARLEY_EMBEDDING_MODEL: 'openai:text-embedding-3-small' })[0]!, /needs OPENAI_API_KEY or OPENAI_BASE_URL/);
      assert.match(problems({ PARLEY_EMBEDDING_MODEL: 'google:gemini-embedding-001' })[0]!, /needs GOOGLE_GENERATIVE_AI_API_KEY/);
      const both = problems({ PARLEY_EMBEDDING_MODEL: 'bogus:x', PORT: 'eighty' });
      assert.ok(both.some((p) => p.startsWith('PORT:')) && both.some((p) => p.startsWith('PARLEY_EMBEDDING_MODEL:')), 'reported with the others');
    });
  });
});
