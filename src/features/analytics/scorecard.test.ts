import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { botWithKey, createBot, createKey, inviteMember } from '../../testing/factories.ts';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../answers/providers/fake-openai-server.ts';
import { COUNTER_FIELDS, recountHours } from './analytics-counters.ts';

const DAY_MS = 86_400_000;

/**
 * The README's scorecard formulas, written out again here from the text (not imported), so that
 * the service is checked against what is documented.
 */
function documentedScores(m: { sessions: number; user: number; multi: number; leads: number; answers: number; unanswered: number; failed: number; slow: number; up: number; down: number }) {
  const clamp = (x: number) => Math.min(1, Math.max(0, x));
  const conversion = m.sessions ? 100 * clamp(m.leads / m.sessions / 0.1) : 0;
  const engagement = m.sessions ? 100 * (0.5 * clamp(m.user / m.sessions / 3) + 0.5 * clamp(m.multi / m.sessions / 0.5)) : 0;
  const accuracy = m.answers ? 100 * clamp(1 - (m.unanswered + m.down) / m.answers) : 50;
  const attempts = m.answers + m.failed;
  const reliability = attempts ? 100 * (0.7 * (m.answers / attempts) + 0.3 * (m.answers ? (m.answers - m.slow) / m.answers : 0)) : 50;
  const satisfaction = (100 * (m.up + 2.5)) / (m.up + m.down + 5);
  const composite = 0.25 * conversion + 0.2 * engagement + 0.25 * accuracy + 0.15 * reliability + 0.15 * satisfaction;
  return { conversion, engagement, accuracy, reliability, satisfaction, composite };
}

const round1 = (x: number) => Math.round(x * 10) / 10;

describe('the scorecard', () => {
  let t: TestApp;
  let provider: FakeOpenAiServer;
  before(async () => {
    provider = await startFakeOpenAiServer();
    t = await startTestApp({ env: { OPENAI_BASE_URL: provider.baseUrl, PARLEY_PROVIDER_TIMEOUT_MS: '2000' } });
  });
  after(async () => {
    await t.close();
    await provider.close();
  });

  async function say(key: string, text: string, session: string) {
    return t.request('POST', '/api/v1/chat', { token: key, body: { text, session_id: session } });
  }

  it('explains a bot with no traffic: neutral where there is nothing to judge, grade F, status "No traffic"', async () => {
    const { bot, key } = await botWithKey(t, { scopes: ['read'] });
    const res = await t.request('GET', `/api/admin/analytics/scorecard?bot_id=${bot.id}`, { token: key.key });
    assert.equal(res.status, 200, res.text);
    const expected = documentedScores({ sessions: 0, user: 0, multi: 0, leads: 0, answers: 0, unanswered: 0, failed: 0, slow: 0, up: 0, down: 0 });
    assert.equal(res.body.bot_id, bot.id);
    assert.equal(res.body.period_days, 30);
    assert.deepEqual(res.body.pillars, {
      conversion: { score: 0, weight: '25%' },
      engagement: { score: 0, weight: '20%' },
      accuracy: { score: 50, weight: '25%' },
      reliability: { score: 50, weight: '15%' },
      satisfaction: { score: 50, weight: '15%' },
    });
    assert.equal(res.body.composite_score, round1(expected.composite));
    assert.equal(res.body.overall_grade, 'F');
    assert.equal(res.body.status, 'No traffic');
    assert.equal(res.body.recommendations.length, 1);
    assert.match(res.body.recommendations[0], /No conversations in the last 30 days/);
    assert.ok(Math.abs(Date.parse(res.body.audit_timestamp) - t.clock.now()) < 1000);
  });

  it('scores planted traffic by the documented formulas, over the window only, weakest pillars first', async () => {
    const { owner, bot, key } = await botWithKey(t, { scopes: ['chat', 'read', 'write'] });
    await t.request('POST', '/api/v1/knowledge', {
      token: key.key,
      body: { type: 'text', name: 'Store', content: 'Our store opens at 9 am and closes at 6 pm, Monday to Saturday. Returns are accepted within 45 days.' },
    });
    // Outside a 30-day window: 40 days ago.
    assert.equal((await say(key.key, 'When does the store open?', 'old-1')).status, 200);
    t.clock.advance(40 * DAY_MS);
    // The dashboard session has expired meanwhile.
    const login = await t.request('POST', '/api/auth/login', { body: { email: owner.email, password: owner.password } });
    assert.equal(login.status, 200, login.text);
    owner.token = login.body.token;
    assert.equal((await t.request('PATCH', `/api/dashboard/bots/${bot.id}`, { token: owner.token, body: { lead_capture_enabled: true } })).status, 200);

    // s1: two questions (multi-turn), a lead, and the answer rated up.
    assert.equal((await say(key.key, 'Hello', 's1')).status, 200);
    assert.equal((await say(key.key, 'When does the store open?', 's1')).status, 200);
    assert.equal((await t.request('POST', '/api/widget/leads', { token: key.key, body: { session_id: 's1', email: 'ana@example.com' } })).status, 201);
    // s2: a question the knowledge does not answer.
    assert.equal((await say(key.key, "What is your CEO's name?", 's2')).status, 200);
    // s3: answered, then rated down (after first being rated up: only the last rating counts).
    assert.equal((await say(key.key, 'How many days do I have to return something?', 's3')).status, 200);

    const rate = async (session: string, rating: 'up' | 'down' | null) => {
      const messages = (await t.request('GET', `/api/v1/conversations/${session}`, { token: key.key })).body.messages as Array<{ id: string; role: string }>;
      const answer = messages.filter((m) => m.role === 'assistant').at(-1)!;
      const res = await t.request('POST', `/api/widget/messages/${answer.id}/feedback`, { token: bot.id, body: { session_id: session, rating } });
      assert.equal(res.status, 200, res.text);
    };
    await rate('s1', 'up');
    await rate('s3', 'up');
    await rate('s3', 'down');

    // s4: the engine fails (a provider answering 500).
    assert.equal((await t.request('PATCH', `/api/dashboard/bots/${bot.id}`, { token: owner.token, body: { selected_model: 'gpt-4o-mini' } })).status, 200);
    provider.behave({ kind: 'status', status: 500, message: 'upstream exploded' });
    assert.ok((await say(key.key, 'Hi there', 's4')).status >= 500);

    const db = t.runtime.database.db;
    const stored = await db.selectFrom('chat_messages').select(['unanswered', 'author', 'created_at']).where('bot_id', '=', bot.id).execute();
    const inWindow = stored.filter((m) => Date.parse(m.created_at) > t.clock.now() - 30 * DAY_MS);
    const unanswered = inWindow.filter((m) => m.unanswered === 1).length;
    assert.ok(unanswered >= 1, "the CEO question is one the bot could not answer");
    const answers = inWindow.filter((m) => m.author === 'bot').length;
    assert.equal(answers, 4);

    const expected = documentedScores({ sessions: 4, user: 5, multi: 1, leads: 1, answers, unanswered, failed: 1, slow: 0, up: 1, down: 1 });
    const res = await t.request('GET', `/api/admin/analytics/scorecard?bot_id=${bot.id}&days=30`, { token: key.key });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.metrics, {
      sessions: 4, user_messages: 5, multi_turn_sessions: 1, leads: 1, bot_answers: answers, unanswered_answers: unanswered, failed_answers: 1, slow_answers: 0, feedback_up: 1, feedback_down: 1,
    });
    for (const pillar of ['conversion', 'engagement', 'accuracy', 'reliability', 'satisfaction'] as const) {
      assert.equal(res.body.pillars[pillar].score, round1(expected[pillar]), pillar);
    }
    assert.equal(res.body.composite_score, round1(expected.composite));
    const grade = [[97, 'A+'], [93, 'A'], [90, 'A-'], [87, 'B+'], [83, 'B'], [80, 'B-'], [77, 'C+'], [70, 'C'], [60, 'D'], [0, 'F']].find(([min]) => round1(expected.composite) >= (min as number))![1];
    assert.equal(res.body.overall_grade, grade);

    // Recommendations: the weakest pillar (by what it costs the composite) first, naming the numbers.
    const costs = (['conversion', 'engagement', 'accuracy', 'reliability', 'satisfaction'] as const)
      .filter((p) => expected[p] < 80)
      .sort((a, b) => ({ conversion: 0.25, engagement: 0.2, accuracy: 0.25, reliability: 0.15, satisfaction: 0.15 })[b] * (100 - expected[b]) - ({ conversion: 0.25, engagement: 0.2, accuracy: 0.25, reliability: 0.15, satisfaction: 0.15 })[a] * (100 - expected[a]));
    assert.ok(costs.length > 0);
    const text = res.body.recommendations.join('\n');
    assert.match(text, new RegExp(`Add knowledge about the ${unanswered} question`));
    // Reliability (4 answers, 1 failure) scores 86: no recommendation; engagement is under 80.
    assert.equal(round1(expected.reliability), 86);
    assert.doesNotMatch(text, /engine failed/);
    assert.match(text, /Visitors send 1\.3 messages per session and 25% ask a second question/);
    const first = res.body.recommendations[0] as string;
    const keywords = { conversion: /lead/, engagement: /messages per session/, accuracy: /knowledge|answered/, reliability: /engine failed|faster model/, satisfaction: /rated/ };
    assert.match(first, keywords[costs[0]!], `first recommendation is about ${costs[0]}`);

    // A one-day window still sees today's traffic; 365 days includes the old session too.
    const year = await t.request('GET', `/api/admin/analytics/scorecard?bot_id=${bot.id}&days=365`, { token: key.key });
    assert.equal(year.body.metrics.sessions, 5);
    assert.equal(year.body.period_days, 365);
  });

  it('keeps the counters equal to a recount from the rows after visits, ratings and cleared conversations', async () => {
    const { bot, key } = await botWithKey(t, { scopes: ['chat', 'read', 'write'] });
    await say(key.key, 'One', 'c-1');
    await say(key.key, 'Two', 'c-1');
    await say(key.key, 'Three', 'c-2');
    const messages = (await t.request('GET', '/api/v1/conversations/c-2', { token: key.key })).body.messages as Array<{ id: string; role: string }>;
    const answer = messages.find((m) => m.role === 'assistant')!;
    for (const rating of ['up', 'down', null, 'down'] as const) {
      await t.request('POST', `/api/widget/messages/${answer.id}/feedback`, { token: bot.id, body: { session_id: 'c-2', rating } });
    }
    assert.equal((await t.request('PATCH', `/api/v1/bots/${bot.id}`, { token: key.key, body: { lead_capture_enabled: true } })).status, 200);
    assert.equal((await t.request('POST', '/api/widget/leads', { token: key.key, body: { session_id: 'c-2', email: 'c2@example.com' } })).status, 201);
    t.clock.advance(2 * 3_600_000);
    // c-1 idled out: this message starts a second visit.
    await say(key.key, 'Back again', 'c-1');
    await say(key.key, 'And again', 'c-1');
    assert.equal((await t.request('DELETE', '/api/v1/conversations/c-2', { token: key.key })).status, 200);

    const db = t.runtime.database.db;
    const kept = await db.selectFrom('analytics_hourly').selectAll().where('bot_id', '=', bot.id).execute();
    const recount = (await recountHours(db, bot.id)).get(bot.id) ?? new Map();
    for (const row of kept) {
      const fresh = recount.get(row.hour);
      for (const field of COUNTER_FIELDS) {
        if (field === 'failed_answers') continue;
        // c-1's first visit is still counted: visits are counted when they start, and only a cleared conversation's current visit leaves.
        const expected = field === 'sessions' || field === 'multi_turn_sessions' ? undefined : Number(fresh?.[field] ?? 0);
        if (expected !== undefined) assert.equal(Number(row[field]), expected, `${row.hour} ${field}`);
      }
    }
    const sum = (field: 'sessions' | 'multi_turn_sessions') => kept.reduce((n, r) => n + Number(r[field]), 0);
    assert.equal(sum('sessions'), 2, 'c-1 twice (two visits); c-2 cleared');
    assert.equal(sum('multi_turn_sessions'), 2, 'both visits of c-1 had two visitor messages');
    const totals = await t.request('GET', '/api/v1/analytics', { token: key.key });
    assert.deepEqual([totals.body.user_messages, totals.body.bot_messages, totals.body.unique_sessions, totals.body.total_leads], [4, 4, 2, 1]);
  });

  it('takes an API key for its own bot, an OAuth-less dashboard member of the account, and refuses the rest', async () => {
    const { owner, bot, key } = await botWithKey(t, { scopes: ['read'] });
    const url = `/api/admin/analytics/scorecard?bot_id=${bot.id}`;
    const other = await createBot(t, owner);
    assert.equal((await t.request('GET', `/api/admin/analytics/scorecard?bot_id=${other.id}`, { token: key.key })).status, 403);
    const chatOnly = await createKey(t, owner, bot.id, { scopes: ['chat'] });
    assert.equal((await t.request('GET', url, { token: chatOnly.key })).status, 403);
    assert.equal((await t.request('GET', url, { token: owner.token })).status, 200);
    const agent = await inviteMember(t, owner, 'agent');
    assert.equal((await t.request('GET', url, { token: agent.token })).status, 200);
    const stranger = await botWithKey(t);
    assert.equal((await t.request('GET', url, { token: stranger.owner.token })).status, 404);
    assert.equal((await t.request('GET', url)).status, 401);
    for (const bad of ['', '?bot_id=not-a-uuid', `?bot_id=${bot.id}&days=0`, `?bot_id=${bot.id}&days=366`, `?bot_id=${bot.id}&days=abc`]) {
      const res = await t.request('GET', `/api/admin/analytics/scorecard${bad}`, { token: key.key });
      assert.equal(res.status, 400, bad);
      assert.match(res.body.detail, bad.includes('days') ? /days/ : /bot_id/);
    }
  });
});
