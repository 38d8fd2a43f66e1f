import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { botWithKey, createKey, inviteMember, type Owner } from '../../testing/factories.ts';
import { listEvents } from '../events/events.repository.ts';
import { countryOfTimezone, findDetails, isDecline, normalisePhone, wantsContact, wantsMeeting } from './lead-extraction.ts';
import { leadsCsv } from './leads.service.ts';
import { LEAD_PHRASES } from './lead-phrases.ts';

const KNOWLEDGE = [
  '# Opening hours',
  '',
  'The shop is open Monday to Saturday from 9:00 to 18:00. On Sundays the shop is closed.',
  '',
  '# Returns',
  '',
  'You can return shoes within 45 days for a full refund.',
  '',
  '# Horaires',
  '',
  'La boutique est ouverte du lundi au samedi de 9 h à 18 h. Le dimanche, la boutique est fermée.',
].join('\n');

describe('lead extraction', () => {
  it('finds emails, phones with the time zone as country hint, and names in several languages', () => {
    assert.equal(countryOfTimezone('Europe/Berlin'), 'DE');
    assert.deepEqual(findDetails('Sure: ana.silva@Example.com', {}), { email: 'ana.silva@example.com' });
    assert.equal(findDetails('ruf mich an: 030 1234567', { country: 'DE' }).phone, '+49301234567');
    assert.equal(findDetails('call +1 415 555 2671 please').phone, '+14155552671');
    assert.equal(normalisePhone('0612345678', 'FR'), '+33612345678');
    assert.equal(normalisePhone('12', 'FR'), undefined);
    assert.equal(findDetails('Hi, my name is Ana Silva and I need help').name, 'Ana Silva');
    assert.equal(findDetails("I'm Marco, I have a question").name, 'Marco');
    assert.equal(findDetails("I'm looking for shoes").name, undefined);
    // "Call me" names someone only when a name follows.
    assert.equal(findDetails('Call me Ishmael').name, 'Ishmael');
    for (const text of ['You can call me back at +44 20 7946 0958', 'call me at +44 20 7946 0958', 'c3@example.com, call me tomorrow', 'Please call me Tomorrow at 5', 'call me ASAP']) {
      assert.equal(findDetails(text).name, undefined, text);
    }
    // A name ends with its sentence: the next one's first word is not part of it.
    const sentences: [string, string | undefined][] = [
      ['I am Dana. My email is dana2@example.com', 'Dana'],
      ['My name is John. What are your opening hours? john@example.com', 'John'],
      ["I'm Ann. Thanks! ann@example.com", 'Ann'],
      ['My name is Mary Ann Smith; my number is +44 20 7946 0958', 'Mary Ann Smith'],
      ['Can you call me Monday? My number is +44 20 7946 0958', undefined],
    ];
    for (const [text, name] of sentences) assert.equal(findDetails(text).name, name, text);
    assert.equal(findDetails("Je m'appelle Claire Dubois").name, 'Claire Dubois');
    assert.equal(findDetails('Ich heiße Jonas').name, 'Jonas');
    assert.equal(findDetails('Me llamo Lucía').name, 'Lucía');
    assert.equal(findDetails('Mi chiamo Giulia').name, 'Giulia');
    assert.equal(findDetails('joão pereira', { asked: 'name' }).name, 'João Pereira');
    assert.equal(findDetails('what time do you open?', { asked: 'name' }).name, undefined);
    assert.equal(findDetails('no thanks', { asked: 'name' }).name, undefined);
    for (const text of ['No thanks', "I'd rather not", 'non merci', 'Nein danke', 'prefiero no', 'não, obrigado', 'no grazie', "I don't want to give my email"]) assert.ok(isDecline(text), text);
    assert.ok(!isDecline('Nothing else, but what about returns?'));
    assert.ok(wantsContact('Can someone contact me about a quote?'));
    assert.ok(wantsContact('Je voudrais un devis'));
    assert.ok(wantsMeeting('Can I book a call with you?'));
    assert.ok(wantsMeeting('Quiero una cita'));
  });

  it('writes CSV with quoting and defused formulas', () => {
    const csv = leadsCsv([
      { id: '1', bot_id: 'b', session_id: 's,1', name: '=HYPERLINK("x")', email: 'a@b.co', phone: '+4930', extra: { company: 'ACME "Ltd"' }, created_at: '2026-11-25T00:00:00.000Z' },
      { id: '2', bot_id: 'b', session_id: '+1+cmd', name: '-2+3', email: '@x', phone: '+393331234567', extra: {}, created_at: '2026-11-25T00:00:00.000Z' },
    ]);
    // A phone number as stored runs nothing and stays as it is; anything else with a leading sign is defused.
    assert.equal(
      csv,
      'id,created_at,name,email,phone,session_id,extra\r\n1,2026-11-25T00:00:00.000Z,"\'=HYPERLINK(""x"")",a@b.co,+4930,"s,1","{""company"":""ACME \\""Ltd\\""""}"\r\n' +
        "2,2026-11-25T00:00:00.000Z,'-2+3,'@x,+393331234567,'+1+cmd,\r\n",
    );
  });
});

describe('leads', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  async function leadBot(settings: Record<string, unknown> = {}) {
    const made = await botWithKey(t, { scopes: ['chat', 'read', 'write'] });
    const patched = await t.request('PATCH', `/api/dashboard/bots/${made.bot.id}`, { token: made.owner.token, body: { lead_capture_enabled: true, ...settings } });
    assert.equal(patched.status, 200, patched.text);
    const added = await t.request('POST', '/api/v1/knowledge', { token: made.key.key, body: { type: 'text', name: 'Shop', content: KNOWLEDGE } });
    assert.equal(added.status, 200, added.text);
    return made;
  }

  async function say(key: string, text: string, session: string, extra: Record<string, unknown> = {}): Promise<string> {
    const res = await t.request('POST', '/api/v1/chat', { token: key, body: { text, session_id: session, ...extra } });
    assert.equal(res.status, 200, res.text);
    return res.body.reply as string;
  }

  it('collects name, email and phone one at a time in an English conversation, creating the lead with its event', async () => {
    const { bot, key } = await leadBot();
    const tz = { visitor_timezone: 'Europe/Berlin' };
    const first = await say(key.key, 'When are you open on Saturday?', 'lead-en', tz);
    assert.match(first, /9:00 to 18:00/);
    assert.ok(first.endsWith(LEAD_PHRASES.en.name), first);
    const second = await say(key.key, 'Ana Silva', 'lead-en', tz);
    assert.ok(second.endsWith(LEAD_PHRASES.en.email), second);
    assert.equal((await t.request('GET', '/api/v1/leads', { token: key.key })).body.total, 0, 'no lead before an email or phone');

    const third = await say(key.key, 'sure, ana@example.com', 'lead-en', tz);
    assert.ok(third.endsWith(LEAD_PHRASES.en.phone), third);
    const leads = await t.request('GET', '/api/v1/leads', { token: key.key });
    assert.equal(leads.body.total, 1);
    const [lead] = leads.body.leads;
    assert.deepEqual({ ...lead, id: undefined, created_at: undefined }, { id: undefined, created_at: undefined, bot_id: bot.id, session_id: 'lead-en', name: 'Ana Silva', email: 'ana@example.com', phone: '', extra: {} });
    const events = (await listEvents(t.runtime.database.db, bot.id)).filter((e) => e.event === 'lead.created');
    assert.equal(events.length, 1);
    assert.deepEqual(events[0]!.data, { id: lead.id, name: 'Ana Silva', email: 'ana@example.com', phone: '', extra: {} });

    const fourth = await say(key.key, 'it is 030 1234567', 'lead-en', tz);
    assert.ok(!fourth.includes('May I') && !fourth.includes('email') && !fourth.includes('phone'), fourth);
    const updated = (await t.request('GET', '/api/v1/leads', { token: key.key })).body.leads[0];
    assert.equal(updated.phone, '+49301234567');
    assert.equal(updated.id, lead.id, 'one lead per session');
    assert.equal((await listEvents(t.runtime.database.db, bot.id)).filter((e) => e.event === 'lead.created').length, 1);
  });

  it('asks in the conversation language, and a visitor who declines is not asked again', async () => {
    const { key } = await leadBot({ lead_fields: ['email', 'phone', 'company'] });
    const first = await say(key.key, 'Quels sont vos horaires le samedi ?', 'lead-fr');
    assert.ok(first.endsWith(LEAD_PHRASES.fr.email), first);
    const second = await say(key.key, 'Non merci', 'lead-fr');
    assert.ok(!second.includes(LEAD_PHRASES.fr.email) && !second.includes(LEAD_PHRASES.fr.phone), second);
    const third = await say(key.key, 'Et le dimanche, la boutique est ouverte ?', 'lead-fr');
    assert.ok(!Object.values(LEAD_PHRASES.fr).some((p) => typeof p === 'string' && third.includes(p)), third);
  });

  it('asks for a contact detail at once when the visitor asks to be contacted, and stores custom fields in extra', async () => {
    const { key } = await leadBot({ lead_fields: ['name', 'email', 'company'] });
    const first = await say(key.key, 'Can someone contact me about a quote?', 'lead-quote');
    assert.ok(first.endsWith(LEAD_PHRASES.en.email), first);
    const second = await say(key.key, 'bob@builder.example', 'lead-quote');
    assert.ok(second.endsWith(LEAD_PHRASES.en.name), second);
    // A message that only gives a detail is thanked, and the next question follows.
    const third = await say(key.key, 'Bob Builder', 'lead-quote');
    assert.equal(third, `${LEAD_PHRASES.en.thanks} ${LEAD_PHRASES.en.other('company')}`);
    const lead = (await t.request('GET', '/api/v1/leads', { token: key.key })).body.leads[0];
    assert.equal(lead.name, 'Bob Builder');
    const fourth = await say(key.key, 'Builder & Sons Ltd', 'lead-quote');
    assert.equal(fourth, LEAD_PHRASES.en.done);
    const fifth = await say(key.key, 'Do you take returns?', 'lead-quote');
    assert.equal(fifth, 'You can return shoes within 45 days for a full refund.', 'nothing left to ask');
    const withExtra = (await t.request('GET', '/api/v1/leads', { token: key.key })).body.leads[0];
    assert.deepEqual(withExtra.extra, { company: 'Builder & Sons Ltd' });
  });

  it('gives the booking link when the visitor asks for a meeting and calendar scheduling is on', async () => {
    const { key } = await leadBot({ calendar_scheduling_enabled: true, meeting_url: 'https://cal.example.com/shop' });
    const reply = await say(key.key, 'Can I book a call with you?', 'lead-meet');
    assert.ok(reply.includes(LEAD_PHRASES.en.meeting('https://cal.example.com/shop')), reply);
  });

  it('does nothing with lead capture off', async () => {
    const { key } = await botWithKey(t, { scopes: ['chat', 'read', 'write'] });
    const reply = await say(key.key, 'My name is Eve, eve@example.com, please contact me', 'lead-off');
    assert.ok(!reply.includes('email address'));
    assert.equal((await t.request('GET', '/api/v1/leads', { token: key.key })).body.total, 0);
    // Nor through the widget form: the bot id is public, and the business did not ask for leads.
    const { bot } = await botWithKey(t, { scopes: ['chat', 'read'] });
    const form = await t.request('POST', '/api/widget/leads', { token: bot.id, body: { session_id: 'form-off', email: 'spam@example.com' } });
    assert.deepEqual([form.status, form.body.detail], [403, 'Lead capture is off for this bot']);
    const stored = await t.runtime.database.db.selectFrom('chat_sessions').select('id').where('bot_id', '=', bot.id).execute();
    assert.equal(stored.length, 0, 'no session either');
  });

  it('takes the widget form: validates, normalises, creates then completes the lead', async () => {
    const { bot, key } = await leadBot({ allowed_domains: ['shop.example.com'] });
    // Widget access: the Origin must be one of the bot's allowed_domains.
    const foreign = await t.request('POST', '/api/widget/leads', { token: bot.id, body: { session_id: 'form-0', email: 'x@example.com' }, headers: { origin: 'https://evil.example.net' } });
    assert.equal(foreign.status, 403);
    const allowed = await t.request('POST', '/api/widget/leads', { token: bot.id, body: { session_id: 'form-0', email: 'x@example.com' }, headers: { origin: 'https://shop.example.com' } });
    assert.equal(allowed.status, 201, allowed.text);
    assert.equal(allowed.headers.get('access-control-allow-origin'), 'https://shop.example.com');
    const widget = (body: unknown) => t.request('POST', '/api/widget/leads', { token: bot.id, body, headers: { origin: 'https://shop.example.com' } });
    assert.match((await widget({ session_id: 'form-1', email: 'not-an-email' })).body.detail, /'email'/);
    assert.match((await widget({ session_id: 'form-1', phone: '12' })).body.detail, /'phone'/);
    assert.match((await widget({ session_id: 'form-1', name: 'Only A Name' })).body.detail, /'email' or 'phone'/);
    // A refused form stores nothing, not even its session (no session.started, no visit counted).
    assert.equal((await t.request('GET', '/api/v1/conversations/form-1', { token: key.key })).status, 404);
    assert.equal((await listEvents(t.runtime.database.db, bot.id)).filter((e) => e.event === 'session.started' && JSON.stringify(e.data).includes('form-1')).length, 0);
    const created = await widget({ session_id: 'form-1', name: 'Zoe', email: 'ZOE@Example.com', extra: { company: 'Zed' } });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.lead.email, 'zoe@example.com');
    const completed = await widget({ session_id: 'form-1', phone: '+44 20 7946 0958' });
    assert.equal(completed.status, 200);
    assert.equal(completed.body.lead.phone, '+442079460958');
    assert.equal(completed.body.lead.id, created.body.lead.id);
    assert.deepEqual(completed.body.lead.extra, { company: 'Zed' });
    const listed = await t.request('GET', '/api/v1/leads?limit=1&offset=0', { token: key.key });
    assert.deepEqual({ total: listed.body.total, limit: listed.body.limit, offset: listed.body.offset }, { total: 2, limit: 1, offset: 0 });
    assert.equal((await t.request('GET', '/api/v1/leads?limit=500', { token: key.key })).status, 400);
    // Past JavaScript's safe integers an offset is refused (the database refused it with a 500).
    assert.equal((await t.request('GET', '/api/v1/leads?offset=9223372036854775807', { token: key.key })).status, 400);
  });

  it('lists, searches and exports leads in the dashboard for members with the Inbox tab', async () => {
    const { owner, bot } = await leadBot();
    for (const [i, email] of ['carl@alpha.example', 'dora@beta.example', 'erik@alpha.example'].entries()) {
      const res = await t.request('POST', '/api/widget/leads', { token: bot.id, body: { session_id: `dash-${i}`, email, name: `Person ${i}` } });
      assert.equal(res.status, 201);
    }
    const all = await t.request('GET', `/api/dashboard/bots/${bot.id}/leads`, { token: owner.token });
    assert.equal(all.body.total, 3);
    assert.deepEqual(all.body.leads.map((l: { email: string }) => l.email), ['erik@alpha.example', 'dora@beta.example', 'carl@alpha.example']);
    const alpha = await t.request('GET', `/api/dashboard/bots/${bot.id}/leads?q=ALPHA`, { token: owner.token });
    assert.equal(alpha.body.total, 2);
    assert.equal((await t.request('GET', `/api/dashboard/bots/${bot.id}/leads?q=%25`, { token: owner.token })).body.total, 0, '% is literal');
    const csv = await t.request('GET', `/api/dashboard/bots/${bot.id}/leads.csv?q=beta`, { token: owner.token });
    assert.equal(csv.status, 200);
    assert.match(csv.headers.get('content-type') ?? '', /^text\/csv/);
    assert.match(csv.headers.get('content-disposition') ?? '', /attachment/);
    const lines = csv.text.trim().split('\r\n');
    assert.equal(lines.length, 2);
    assert.match(lines[1]!, /dora@beta\.example/);
    const agent = await inviteMember(t, owner as Owner, 'agent', ['knowledge']);
    assert.equal((await t.request('GET', `/api/dashboard/bots/${bot.id}/leads`, { token: agent.token })).status, 403);
    const key = await createKey(t, owner as Owner, bot.id, { scopes: ['chat'] });
    assert.equal((await t.request('GET', '/api/v1/leads', { token: key.key })).status, 403, 'read scope needed');
  });
});
