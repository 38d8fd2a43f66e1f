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
});
